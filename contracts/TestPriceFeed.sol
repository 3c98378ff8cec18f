// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title Test helper: a price feed answering as a Chainlink AggregatorV3 does
/// @notice Used only by the treasury's API tests on a local anvil chain, standing in for a Chainlink feed
///         (the outside world's contract): a fixed answer with its decimals and description.
contract TestPriceFeed {
    int256 private immutable _answer;
    uint8 public immutable decimals;
    string public description;

    constructor(int256 answer_, uint8 decimals_, string memory description_) {
        _answer = answer_;
        decimals = decimals_;
        description = description_;
    }

    function latestRoundData() external view returns (uint80, int256, uint256, uint256, uint80) {
        return (1, _answer, block.timestamp, block.timestamp, 1);
    }
}
