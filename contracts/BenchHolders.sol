// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IVotes} from "@openzeppelin/contracts/governance/utils/IVotes.sol";

/// @title Bench helper: many delegated token holders in one transaction
/// @notice Used only by `npm run bench -- scale` on a local anvil chain, to give 100,000 holders tokens and their
///         own votes within minutes (a transaction per holder would take hours). Each holder's delegation to
///         itself is its own signature (ERC20Votes delegateBySig), so the chain holds what real holders would
///         have done. Not deployed anywhere else; whoever calls it spends the tokens it holds.
contract BenchHolders {
    /// @notice For each holder in order: applies its signed self-delegation, then sends it `amounts[i]` of `token`.
    function delegateAndFund(
        address token,
        address[] calldata holders,
        uint256[] calldata amounts,
        uint256 expiry,
        uint8[] calldata v,
        bytes32[] calldata r,
        bytes32[] calldata s
    ) external {
        for (uint256 i = 0; i < holders.length; ++i) {
            IVotes(token).delegateBySig(holders[i], 0, expiry, v[i], r[i], s[i]);
            require(IERC20(token).transfer(holders[i], amounts[i]), "transfer failed");
        }
    }
}
