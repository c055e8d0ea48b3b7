// A regular file read through windows mapped read-only instead of read(2) into the
// reader's buffer: the search runs over the page cache itself, so the input's bytes are
// never copied (128 MiB by read(2) cost 0.02–0.03 s of system time for the copy alone,
// which a memory-bound search cannot hide).
//
// What happens when the file shrinks while it is searched — rg maps it and dies of
// SIGBUS; GNU grep reads it and sees a shorter file. Here each window is mapped up to
// the size the file has then, so a file cut between windows reads as the shorter file,
// as GNU grep sees it. A cut inside the window being searched: a guard (CMappedInput)
// maps zeros over the pages past the new end, the window is marked, and the reader
// stops the input with ``RecordReadError/shrank`` — the records of that window may
// have been handed on with NUL bytes where the cut bytes were, and the run says so and
// fails (exit 2), never dies.
// That is why only sinks that select records (match, grep) read mapped, never `filter`,
// which passes records through and must not alter a byte.

import CMappedInput

/// Windows of one regular file, mapped one after another as the read loop goes on.
///
/// Offsets: the reader counts input offsets from where it started reading (the file
/// position then, which a redirected standard input may have moved); ``fileDelta``
/// turns them into file offsets.
struct MappedInput {
    let fd: Int32
    /// The file offset of input offset 0.
    let fileDelta: Int
    /// The file's size when last looked at.
    private(set) var fileSize: Int
    /// The current window (nil before the first), its file offset and length.
    private(set) var window: UnsafePointer<UInt8>?
    private(set) var windowOffset = 0
    private(set) var windowLength = 0
    private var slot: Int32 = -1
    /// A window given back had met the file's end early.
    private var shrankBefore = false

    /// Bytes mapped past the unfinished record at each step: 16 MiB keeps the mapped
    /// pages of a default run (records up to 16 MiB) near 32 MiB, and a 128 MiB file
    /// costs eight map calls.
    /// 18 MiB: a whole number of grep's 96 KiB blocks (``RecordReader/headBytes``), so
    /// no block straddles two windows, and of 2 MiB, a huge page (171 blocks, 16.03 MiB,
    /// cost `grep ERROR` over a 100 MB log 3 ms more system time than 16 MiB did).
    static let windowBytes = 18 << 20
    /// Files with fewer bytes left are read: one read(2) of a small file costs less
    /// than a map, its page-table set-up and the unmap (rg maps single large files only).
    static let minimumBytes = 1 << 20
    static let pageSize = Int(ts_page_size())

    /// `fd` as a mapped input, when it is a regular file with bytes left past its
    /// position; nil for pipes, terminals, devices, `/proc` files (size 0), empty files
    /// and files whose position cannot be read — those are read with read(2).
    /// `prefix` bytes of it were already read, and are input offsets `base` on.
    init?(fd: Int32, prefixCount: Int, base: Int) {
        guard let (size, position) = Self.mappableSpan(fd, alreadyRead: prefixCount) else { return nil }
        self.fd = fd
        self.fileDelta = position - prefixCount - base
        self.fileSize = size
    }

    /// The file's size and `fd`'s position when `fd` is worth mapping: a regular file
    /// whose position is at least `alreadyRead` (bytes of it read before) with at least
    /// `minimumBytes` (and at least one) left. The one rule for mapping an input, for
    /// the one-thread reader and the chunks of a threaded run (``MappedChunks``) alike.
    static func mappableSpan(_ fd: Int32, alreadyRead: Int = 0,
                             minimumBytes: Int = MappedInput.minimumBytes) -> (size: Int, position: Int)? {
        guard let size = regularFileSize(fd), size > 0 else { return nil }
        let position = currentOffset(fd)
        guard position >= max(0, alreadyRead), size - position >= max(1, minimumBytes) else { return nil }
        return (size, position)
    }

    /// Whether a read met a page past the file's end: the file shrank.
    var shrank: Bool { shrankBefore || (slot >= 0 && ts_window_shrank(slot) != 0) }

    /// What ``remap(keepFrom:oldEnd:)`` did.
    enum Remap { case mapped, atEnd, failed }

    /// Maps the window that starts at the page of file offset `keepFrom` and reaches
    /// ``windowBytes`` past `oldEnd` (the file offset where the last window ended), or
    /// the file's end. `.atEnd`, with the window kept, when nothing lies past `oldEnd`;
    /// `.failed`, with `errno` set, when the map fails.
    mutating func remap(keepFrom: Int, oldEnd: Int) -> Remap {
        // The file may have grown or shrunk since the last window, as read(2) would
        // see: a window never reaches past the end the file has now.
        if let size = regularFileSize(fd) { fileSize = size }
        if oldEnd >= fileSize { return .atEnd }
        let offset = keepFrom & ~(Self.pageSize - 1)
        let length = min(fileSize, oldEnd + Self.windowBytes) - offset
        unmap()
        var newSlot: Int32 = -1
        guard let address = ts_window_map(fd, off_t(offset), length, &newSlot) else { return .failed }
        window = address
        windowOffset = offset
        windowLength = length
        slot = newSlot
        return .mapped
    }

    /// Gives the current window back.
    mutating func unmap() {
        if let window {
            shrankBefore = shrank
            ts_window_unmap(window, windowLength, slot)
        }
        window = nil
        windowLength = 0
        slot = -1
    }
}
