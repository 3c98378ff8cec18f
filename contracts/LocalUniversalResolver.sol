// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

interface ENSRegistry {
    function resolver(bytes32 node) external view returns (address);
}

/// @title The local name service's Universal Resolver
/// @notice Only for the development chain with id 1 that packages/devchain starts (ADR 026): what viem's ENS
///         actions call (`resolveWithGateways`, `reverseWithGateways`, `findResolver`), with the same return
///         values and custom errors as ENS's own Universal Resolver, over resolvers that answer on-chain. Not
///         supported: CCIP-Read (the `gateways` argument is ignored) and ENSIP-10 wildcard resolvers.
///         Reverse names are forward-checked: a primary name whose address differs reverts
///         `ReverseAddressMismatch`, which viem reads as "no name".
/// @dev Put at viem's mainnet `ensUniversalResolver` address by copying its runtime code, so it keeps no
///      storage: the registry is an immutable, which lives in the runtime code.
contract LocalUniversalResolver {
    error DNSDecodingFailed(bytes dns);
    error DNSEncodingFailed(string ens);
    error EmptyAddress();
    error ResolverNotFound(bytes name);
    error ResolverNotContract(bytes name, address resolver);
    error ResolverError(bytes errorData);
    error ReverseAddressMismatch(string primary, bytes primaryAddress);
    error UnsupportedResolverProfile(bytes4 selector);

    uint256 private constant COIN_TYPE_ETH = 60;
    uint256 private constant COIN_TYPE_DEFAULT = 0x80000000;
    bytes4 private constant NAME = bytes4(keccak256("name(bytes32)"));
    bytes4 private constant ADDR = bytes4(keccak256("addr(bytes32)"));
    bytes4 private constant ADDR_OF_COIN = bytes4(keccak256("addr(bytes32,uint256)"));

    ENSRegistry public immutable registry;

    constructor(ENSRegistry registry_) {
        registry = registry_;
    }

    /// @notice The resolver of a DNS-encoded name or of its nearest ancestor that has one (ENSIP-10), the
    ///         name's namehash, and the offset in `name` of the label whose resolver was found.
    function findResolver(bytes memory name) public view returns (address, bytes32, uint256) {
        return _findResolver(name, 0);
    }

    /// @notice Calls the name's own resolver with `data`; answers its result and the resolver.
    function resolveWithGateways(bytes calldata name, bytes calldata data, string[] calldata)
        external
        view
        returns (bytes memory result, address resolver)
    {
        (resolver,) = _requireResolver(name);
        result = _callResolver(resolver, data);
    }

    /// @notice The primary name of `lookupAddress` for `coinType` (ENSIP-19), if its forward address is
    ///         `lookupAddress`; "" when the reverse record has no name.
    function reverseWithGateways(bytes calldata lookupAddress, uint256 coinType, string[] calldata)
        external
        view
        returns (string memory primary, address resolver, address reverseResolver)
    {
        if (lookupAddress.length == 0) revert EmptyAddress();
        bytes32 reverseNode;
        (reverseResolver, reverseNode) = _requireResolver(_dnsEncode(_reverseName(lookupAddress, coinType)));
        primary = abi.decode(_callResolver(reverseResolver, abi.encodeWithSelector(NAME, reverseNode)), (string));
        if (bytes(primary).length == 0) return ("", address(0), reverseResolver);

        bytes32 node;
        (resolver, node) = _requireResolver(_dnsEncode(primary));
        bytes memory primaryAddress = coinType == COIN_TYPE_ETH
            ? abi.encodePacked(abi.decode(_callResolver(resolver, abi.encodeWithSelector(ADDR, node)), (address)))
            : abi.decode(_callResolver(resolver, abi.encodeWithSelector(ADDR_OF_COIN, node, coinType)), (bytes));
        if (keccak256(primaryAddress) != keccak256(lookupAddress)) {
            revert ReverseAddressMismatch(primary, primaryAddress);
        }
    }

    /// @dev The name's own resolver (an ancestor's would need wildcard support), which must be a contract.
    function _requireResolver(bytes memory name) private view returns (address resolver, bytes32 node) {
        uint256 offset;
        (resolver, node, offset) = _findResolver(name, 0);
        if (resolver == address(0) || offset != 0) revert ResolverNotFound(name);
        if (resolver.code.length == 0) revert ResolverNotContract(name, resolver);
    }

    function _findResolver(bytes memory name, uint256 offset)
        private
        view
        returns (address resolver, bytes32 node, uint256 resolverOffset)
    {
        if (offset >= name.length) revert DNSDecodingFailed(name);
        uint256 length = uint8(name[offset]);
        if (length == 0) {
            if (offset != name.length - 1) revert DNSDecodingFailed(name);
            return (registry.resolver(bytes32(0)), bytes32(0), offset);
        }
        uint256 next = offset + 1 + length;
        if (next >= name.length) revert DNSDecodingFailed(name);
        bytes32 parent;
        (resolver, parent, resolverOffset) = _findResolver(name, next);
        bytes32 labelHash;
        assembly {
            labelHash := keccak256(add(add(name, 33), offset), length)
        }
        node = keccak256(abi.encodePacked(parent, labelHash));
        address own = registry.resolver(node);
        if (own != address(0)) (resolver, resolverOffset) = (own, offset);
    }

    /// @dev A resolver's revert becomes `ResolverError`, and an empty answer `UnsupportedResolverProfile`, as
    ///      ENS's Universal Resolver reports them (viem reads both as "no record").
    function _callResolver(address resolver, bytes memory data) private view returns (bytes memory result) {
        bool ok;
        (ok, result) = resolver.staticcall(data);
        if (!ok) {
            if (bytes4(result) == UnsupportedResolverProfile.selector) {
                assembly {
                    revert(add(result, 32), mload(result))
                }
            }
            revert ResolverError(result);
        }
        if (result.length == 0) revert UnsupportedResolverProfile(bytes4(data));
    }

    /// @dev ENSIP-19: `<address in hex>.addr.reverse` for Ethereum, `.default.reverse` for the default coin
    ///      type, else `.<coin type in hex>.reverse`.
    function _reverseName(bytes calldata lookupAddress, uint256 coinType) private pure returns (string memory) {
        string memory namespace = coinType == COIN_TYPE_ETH
            ? "addr"
            : coinType == COIN_TYPE_DEFAULT ? "default" : _hexNumber(coinType);
        return string.concat(_hex(lookupAddress), ".", namespace, ".reverse");
    }

    /// @dev "ada.eth" → 0x03 "ada" 0x03 "eth" 0x00.
    function _dnsEncode(string memory name) private pure returns (bytes memory dns) {
        bytes memory text = bytes(name);
        dns = new bytes(text.length + 2);
        uint256 labelStart;
        for (uint256 i; i <= text.length; ++i) {
            if (i == text.length || text[i] == ".") {
                uint256 length = i - labelStart;
                if (length == 0 || length > 255) revert DNSEncodingFailed(name);
                dns[labelStart] = bytes1(uint8(length));
                labelStart = i + 1;
            } else {
                dns[i + 1] = text[i];
            }
        }
        dns[text.length + 1] = 0;
    }

    bytes16 private constant DIGITS = "0123456789abcdef";

    function _hex(bytes calldata data) private pure returns (string memory) {
        bytes memory text = new bytes(data.length * 2);
        for (uint256 i; i < data.length; ++i) {
            text[2 * i] = DIGITS[uint8(data[i]) >> 4];
            text[2 * i + 1] = DIGITS[uint8(data[i]) & 15];
        }
        return string(text);
    }

    /// @dev Lower-case hex without leading zeros.
    function _hexNumber(uint256 value) private pure returns (string memory) {
        uint256 digits = 1;
        for (uint256 rest = value >> 4; rest != 0; rest >>= 4) ++digits;
        bytes memory text = new bytes(digits);
        for (uint256 i = digits; i > 0; --i) {
            text[i - 1] = DIGITS[value & 15];
            value >>= 4;
        }
        return string(text);
    }
}
