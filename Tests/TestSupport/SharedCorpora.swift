import Foundation

/// Where the test inputs live: `Corpora/` in this repository (data we own) and
/// `../shared/corpora/` beside the checkout (read-only third-party text, never copied
/// into the repository). Tests that need the shared corpora skip with a message when
/// it is absent.
public enum SharedCorpora {
    /// The repository root, found from this source file's path.
    public static let repositoryRoot: URL = {
        URL(fileURLWithPath: #filePath)  // …/Tests/TestSupport/SharedCorpora.swift
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }()

    /// `Corpora/` in this repository.
    public static var ownCorpora: URL { repositoryRoot.appendingPathComponent("Corpora") }

    /// `../shared/corpora/`, or `TURNSTILE_SHARED_CORPORA` when set.
    public static var sharedRoot: URL {
        if let override = Environment.value("TURNSTILE_SHARED_CORPORA") {
            return URL(fileURLWithPath: override)
        }
        return repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared/corpora")
    }

    /// `true` when `../shared/corpora/` exists.
    public static var isAvailable: Bool {
        FileManager.default.fileExists(atPath: sharedRoot.appendingPathComponent("SOURCES.md").path)
    }

    /// The message tests print when they skip for want of the shared corpora.
    public static var skipMessage: String {
        "skipped: shared corpora not found at \(sharedRoot.path) (see ../shared/corpora/SOURCES.md)"
    }

    /// The bytes of `relativePath` under the shared corpora, or nil when absent.
    public static func bytes(_ relativePath: String) -> [UInt8]? {
        guard let data = FileManager.default.contents(atPath: sharedRoot.appendingPathComponent(relativePath).path)
        else { return nil }
        return [UInt8](data)
    }

    /// Non-empty lines of a text file under the shared corpora, or nil when absent.
    public static func lines(_ relativePath: String) -> [String]? {
        guard let data = bytes(relativePath) else { return nil }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init).filter { !$0.isEmpty }
    }
}

/// Reads process environment variables (kept in one place so tests stay Foundation-light).
public enum Environment {
    public static func value(_ name: String) -> String? {
        ProcessInfo.processInfo.environment[name]
    }
}
