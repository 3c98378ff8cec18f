// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/// @title A plain ERC-20 for the development chain
/// @notice The demo treasury's second token (USDG, 6 decimals) and any test that needs an ERC-20 without votes.
///         The whole supply goes to `holder` at deployment: no owner, no minting afterwards, so the contract's
///         address depends only on its arguments when it is deployed through a CREATE2 factory.
contract PlainToken is ERC20 {
    uint8 private immutable _decimals;

    constructor(string memory name_, string memory symbol_, uint8 decimals_, address holder, uint256 supply)
        ERC20(name_, symbol_)
    {
        _decimals = decimals_;
        _mint(holder, supply);
    }

    function decimals() public view override returns (uint8) {
        return _decimals;
    }
}
