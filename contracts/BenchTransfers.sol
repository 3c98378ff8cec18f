// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";

/// @title Bench helper: many token transfers in one transaction
/// @notice Used only by `npm run bench -- governance` on a local anvil chain, to fund its voters and to build a
///         long transfer history quickly (one transaction per transfer would take minutes). Not deployed anywhere
///         else; whoever calls it spends the tokens it holds.
contract BenchTransfers {
    /// @notice Sends `amount` of `token` from this contract to each of `recipients`, in order.
    function transferEach(IERC20 token, address[] calldata recipients, uint256 amount) external {
        for (uint256 i = 0; i < recipients.length; ++i) {
            require(token.transfer(recipients[i], amount), "transfer failed");
        }
    }
}
