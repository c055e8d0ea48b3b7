// What a message's MIME tree is made of, noted while it is decoded (MailMessage's
// decoder and HTMLText): the counts of text and HTML parts, whether a text part came
// in base64, the kinds of its attachments, forms, and links whose visible text names
// another domain than the one they point at. MailFacts turns these into fact words.

/// The structure of a decoded message.
///
/// ```swift
/// let m = MailMessage(parsing: Array("Content-Type: text/html\r\n\r\n<form action=x>".utf8))
/// m.structure.htmlParts     // 1
/// m.structure.html.forms    // 1
/// ```
public struct MailStructure: Sendable, Hashable {
    /// Text parts decoded as plain text.
    public var plainParts = 0
    /// Text parts decoded as HTML.
    public var htmlParts = 0
    /// A text part was base64-encoded.
    public var base64Text = false
    /// The attachment kinds seen (``MailFacts`` words such as `pdf`, `archive`, `html`).
    public var attachmentKinds: Set<String> = []
    /// What the HTML parts showed.
    public var html = HTMLFacts()
    /// What folding the text found hiding words (look-alike letters, invisible characters).
    public var disguises = TextDisguises()

    public init() {}

    /// Notes an attachment (a part that is not text) by its type and file name.
    mutating func addAttachment(type: String, fileName: [UInt8]) {
        let name = String(decoding: fileName.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)
        let ext = name.split(separator: ".").last.map(String.init) ?? ""
        let kind: String
        switch ext {
        case "pdf": kind = "pdf"
        case "zip", "rar", "7z", "gz", "tgz", "tar", "cab", "arj", "lzh", "z", "xz", "bz2": kind = "archive"
        case "htm", "html", "shtml", "xhtml", "svg", "hta": kind = "html"
        case "exe", "scr", "js", "vbs", "jse", "wsf", "bat", "cmd", "com", "msi", "ps1", "jar", "lnk", "iso", "img",
             "vhd", "one", "xll": kind = "executable"
        case "doc", "docx", "docm", "xls", "xlsx", "xlsm", "ppt", "pptx", "odt", "ods", "rtf": kind = "office"
        case "ics", "vcs": kind = "calendar"
        case "png", "jpg", "jpeg", "gif", "bmp", "webp", "tif", "tiff", "heic": kind = "image"
        case "p7s", "asc", "sig": kind = "signature"
        case "patch", "diff", "txt", "csv", "log": kind = "text"
        default:
            if type.hasPrefix("image/") { kind = "image" }
            else if type == "application/pdf" { kind = "pdf" }
            else if type.contains("zip") || type.contains("rar") || type.contains("compressed") { kind = "archive" }
            else if type.contains("signature") { kind = "signature" }
            else if type == "text/calendar" { kind = "calendar" }
            else if type.contains("msword") || type.contains("officedocument") || type.contains("ms-excel") { kind = "office" }
            else { kind = "other" }
        }
        attachmentKinds.insert(kind)
    }
}

/// What the HTML of a message showed, beyond its text.
public struct HTMLFacts: Sendable, Hashable {
    /// `<form>` elements.
    public var forms = 0
    /// A link's visible text names a domain other than the one its `href` points at
    /// ("www.paypal.com" linking to http://login.example.net).
    public var linkTextNamesOtherDomain = false

    public init() {}
}
