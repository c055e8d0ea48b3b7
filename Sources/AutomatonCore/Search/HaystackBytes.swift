// How every searcher reads a haystack it did not choose the type of: the bytes in
// place when the collection keeps them contiguous ([UInt8], ArraySlice, String's
// UTF-8 view, Foundation's Data, unsafe buffers), one copy otherwise. The search
// loops themselves only ever see an UnsafeBufferPointer.

/// Runs `body` over the bytes of `haystack`: in place through
/// `withContiguousStorageIfAvailable` when the collection offers it, else over one copy.
///
/// - Complexity: O(1) before `body` for contiguous collections, O(n) to copy otherwise.
@inlinable
package func withHaystackBytes<Haystack: Collection<UInt8>, R>(
    _ haystack: Haystack, _ body: (UnsafeBufferPointer<UInt8>) throws -> R
) rethrows -> R {
    if let result = try haystack.withContiguousStorageIfAvailable(body) { return result }
    return try Array(haystack).withUnsafeBufferPointer(body)
}
