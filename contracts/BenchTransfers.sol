// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";

/// @title Bench helper: many token transfers in one transaction
/// @notice Used only by `npm run bench` (sections governance and treasury) on a local anvil chain, to fund voters
///         and to build long transfer histories quickly (one transaction per transfer would take minutes). Not
///         deployed anywhere else; whoever calls it spends the tokens it holds, and those `from` approved it for.
contract BenchTransfers {
    /// @notice Sends `amount` of `token` from this contract to each of `recipients`, in order.
    function transferEach(IERC20 token, address[] calldata recipients, uint256 amount) external {
        for (uint256 i = 0; i < recipients.length; ++i) {
            require(token.transfer(recipients[i], amount), "transfer failed");
        }
    }

    /// @notice Sends `amount` of `token` from `from` (which approved this contract) to each of `recipients`.
    function transferFromEach(IERC20 token, address from, address[] calldata recipients, uint256 amount) external {
        for (uint256 i = 0; i < recipients.length; ++i) {
            require(token.transferFrom(from, recipients[i], amount), "transfer failed");
        }
    }
}
