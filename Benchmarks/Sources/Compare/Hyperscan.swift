// Hyperscan (Intel's SIMD multi-pattern engine, libhyperscan-dev) as the in-process
// anchor: the fastest literal and regex scanner there is, so "how far from Hyperscan"
// says how much a strategy still leaves on the table.
//
// Loaded with dlopen when the machine has libhs.so.5 (Debian's libhyperscan5), so the
// package builds and runs without it: the column then says "not installed". Block
// mode, one database for all patterns, HS_FLAG_SOM_LEFTMOST so each report carries its
// leftmost start.
//
// Counts: Hyperscan reports every (pattern, end) it finds, in order of end, not
// leftmost-first non-overlapping matches. The count taken is the greedy one over that
// stream (a report is counted when it starts at or after the end of the last one
// counted); it equals Turnstile's for word lists whose matches do not overlap, and may
// differ otherwise, so a difference is printed as a note, not an error.

import Foundation

/// Hyperscan through dlopen: nil when the library is absent.
final class Hyperscan: @unchecked Sendable {
    typealias CompileMulti = @convention(c) (
        UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<UInt32>?, UnsafePointer<UInt32>?, UInt32, UInt32,
        UnsafeRawPointer?, UnsafeMutablePointer<OpaquePointer?>?, UnsafeMutablePointer<UnsafeMutableRawPointer?>?
    ) -> Int32
    typealias AllocScratch = @convention(c) (OpaquePointer?, UnsafeMutablePointer<OpaquePointer?>?) -> Int32
    typealias EventHandler = @convention(c) (UInt32, UInt64, UInt64, UInt32, UnsafeMutableRawPointer?) -> Int32
    typealias Scan = @convention(c) (
        OpaquePointer?, UnsafePointer<CChar>?, UInt32, UInt32, OpaquePointer?, EventHandler?, UnsafeMutableRawPointer?
    ) -> Int32
    typealias FreeCompileError = @convention(c) (UnsafeMutableRawPointer?) -> Int32
    typealias Version = @convention(c) () -> UnsafePointer<CChar>?

    static let caseless: UInt32 = 1, singleMatch: UInt32 = 8, utf8: UInt32 = 32, somLeftmost: UInt32 = 256
    static let blockMode: UInt32 = 1

    let compileMulti: CompileMulti
    let allocScratch: AllocScratch
    let scan: Scan
    let freeCompileError: FreeCompileError
    let version: String

    /// The library, loaded once; nil when it is not installed.
    static let shared: Hyperscan? = Hyperscan()

    private init?() {
        guard let lib = dlopen("libhs.so.5", RTLD_NOW) ?? dlopen("libhs.so", RTLD_NOW) else { return nil }
        func symbol<T>(_ name: String, as: T.Type) -> T? {
            dlsym(lib, name).map { unsafeBitCast($0, to: T.self) }
        }
        guard let c = symbol("hs_compile_multi", as: CompileMulti.self),
              let a = symbol("hs_alloc_scratch", as: AllocScratch.self),
              let s = symbol("hs_scan", as: Scan.self),
              let f = symbol("hs_free_compile_error", as: FreeCompileError.self),
              let v = symbol("hs_version", as: Version.self)
        else { return nil }
        compileMulti = c; allocScratch = a; scan = s; freeCompileError = f
        version = v().map { String(cString: $0) } ?? "?"
    }

    /// The expression of a literal: every byte escaped as \xHH (Hyperscan's syntax is PCRE's).
    static func escaped(_ word: String) -> String {
        word.utf8.map { String(format: "\\x%02x", $0) }.joined()
    }

    /// A compiled database and its scratch space, searched by `count`.
    final class Database: @unchecked Sendable {
        let hs: Hyperscan
        let db: OpaquePointer
        let scratch: OpaquePointer
        init(hs: Hyperscan, db: OpaquePointer, scratch: OpaquePointer) { self.hs = hs; self.db = db; self.scratch = scratch }

        /// The greedy non-overlapping count of the reports (see the file comment).
        func count(_ haystack: [UInt8]) -> Result<Int, EngineFailure> {
            final class Counter { var n = 0; var lastEnd: UInt64 = 0 }
            let counter = Counter()
            let handler: EventHandler = { _, from, to, _, context in
                let c = Unmanaged<Counter>.fromOpaque(context!).takeUnretainedValue()
                if from >= c.lastEnd { c.n += 1; c.lastEnd = to }
                return 0
            }
            let status = haystack.withUnsafeBufferPointer { b in
                b.withMemoryRebound(to: CChar.self) { chars in
                    hs.scan(db, chars.baseAddress, UInt32(b.count), 0, scratch, handler,
                            Unmanaged.passUnretained(counter).toOpaque())
                }
            }
            if status != 0 { return .failure(EngineFailure(label: "error", message: "hs_scan returned \(status)")) }
            return .success(counter.n)
        }
    }

    /// Compiles `expressions` (ids in order) into one block-mode database.
    func compile(_ expressions: [String], flags: UInt32) throws(EngineFailure) -> Database {
        var db: OpaquePointer? = nil
        var error: UnsafeMutableRawPointer? = nil
        let cStrings = expressions.map { strdup($0) }
        defer { cStrings.forEach { free($0) } }
        let pointers: [UnsafePointer<CChar>?] = cStrings.map { UnsafePointer($0) }
        let allFlags = [UInt32](repeating: flags, count: expressions.count)
        let ids = (0..<expressions.count).map(UInt32.init)
        let status = compileMulti(pointers, allFlags, ids, UInt32(expressions.count), Self.blockMode, nil, &db, &error)
        if status != 0 {
            // hs_compile_error_t { char *message; int expression; }
            let message = error.flatMap { $0.load(as: UnsafePointer<CChar>?.self) }.map { String(cString: $0) }
                ?? "hs_compile_multi returned \(status)"
            _ = freeCompileError(error)
            throw EngineFailure(label: "refused", message: message)
        }
        var scratch: OpaquePointer? = nil
        guard let db, allocScratch(db, &scratch) == 0, let scratch else {
            throw EngineFailure(label: "error", message: "hs_alloc_scratch failed")
        }
        return Database(hs: self, db: db, scratch: scratch)
    }
}

extension Engines {
    /// Hyperscan on a workload: the words as escaped literals (`\b…\b` for whole words),
    /// or the regexes in UTF-8 mode; a "skipped" failure when the library is missing.
    static func hyperscan(words: [String]?, patterns: [String]?, caseInsensitive: Bool, wholeWord: Bool) throws(EngineFailure) -> BuiltSearcher {
        guard let hs = Hyperscan.shared else {
            throw EngineFailure(label: "skipped", message: "libhs.so.5 (libhyperscan5) is not installed")
        }
        var flags = Hyperscan.somLeftmost
        if caseInsensitive { flags |= Hyperscan.caseless }
        let expressions: [String]
        if let words {
            expressions = words.map { wholeWord ? "\\b\(Hyperscan.escaped($0))\\b" : Hyperscan.escaped($0) }
        } else {
            expressions = patterns ?? []
            flags |= Hyperscan.utf8
        }
        let db = try hs.compile(expressions, flags: flags)
        return BuiltSearcher(count: { db.count($0) }, matchesAndLines: nil, memoryBytes: nil,
                             detail: "Hyperscan \(hs.version) (block mode, HS_FLAG_SOM_LEFTMOST; greedy non-overlapping count)")
    }
}
