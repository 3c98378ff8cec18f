// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {ERC20Permit} from "@openzeppelin/contracts/token/ERC20/extensions/ERC20Permit.sol";
import {ERC20Votes} from "@openzeppelin/contracts/token/ERC20/extensions/ERC20Votes.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {Nonces} from "@openzeppelin/contracts/utils/Nonces.sol";

/// @title Guildhall governance token
/// @notice ERC20 with permit and block-number checkpointed votes; the owner mints so the demo seed can fund members.
contract GovernanceToken is ERC20, ERC20Permit, ERC20Votes, Ownable {
    // The deployer owns minting; a real DAO would hand ownership to its governor.
    constructor(string memory name_, string memory symbol_)
        ERC20(name_, symbol_)
        ERC20Permit(name_)
        Ownable(msg.sender)
    {}

    /// @notice Mints `amount` to `to`; owner only.
    function mint(address to, uint256 amount) external onlyOwner {
        _mint(to, amount);
    }

    // Both ERC20 and ERC20Votes define _update; votes must move with balances.
    function _update(address from, address to, uint256 value) internal override(ERC20, ERC20Votes) {
        super._update(from, to, value);
    }

    // ERC20Permit and Votes (via EIP712 nonces) share one nonce counter.
    function nonces(address owner) public view override(ERC20Permit, Nonces) returns (uint256) {
        return super.nonces(owner);
    }
}
