import GalleySupport
/// A readable listing of nodes, one line each (each line ends with a newline):
///
///     1:1 text "Hello, "
///     1:8 <font color="red" face="Palatino">
///     1:43 text "world"
///     1:48 </font>
///     1:55 newline
///     2:1 <img src="a.png" width="20"/>
///
/// Attributes appear with their written names and decoded values, in source order.
public func dump(_ nodes: [MarkupNode]) -> String {
    var out = ""
    for node in nodes {
        out += node.location.description
        out += " "
        switch node {
        case .text(let text, _):
            out += "text " + dumpQuoted(text)
        case .newline:
            out += "newline"
        case .startTag(let tag):
            out += "<" + tag.name
            for attribute in tag.attributes {
                out += " " + attribute.name + "=" + dumpQuoted(attribute.value)
            }
            out += tag.selfClosing ? "/>" : ">"
        case .endTag(let name, _):
            out += "</" + name + ">"
        }
        out += "\n"
    }
    return out
}

/// A string as a Swift literal: quoted, with `\"`, `\\`, `\t`, `\n`, `\r`, `\0` escaped and
/// other invisible scalars (controls, format characters, non-ASCII spaces, private use,
/// unassigned) written `\u{A0}`.
public func dumpQuoted(_ s: String) -> String {
    var out = "\""
    for scalar in s.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\t": out += "\\t"
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\0": out += "\\0"
        case " ": out += " "
        default:
            switch scalar.properties.generalCategory {
            case .control, .format, .spaceSeparator, .lineSeparator, .paragraphSeparator,
                .privateUse, .surrogate, .unassigned:
                out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default:
                out.unicodeScalars.append(scalar)
            }
        }
    }
    return out + "\""
}
