import FoundationEssentials
import GalleyLayout
import GalleyMarkup
import GalleyTemplate

extension Run {
    /// `galley fonts`: the families Galley sees (installed, and the project's with `--font-path`
    /// or a template's `fonts`), or with `--resolve` what one face name becomes.
    mutating func fonts() throws -> Int32 {
        let o = try FontsOptions(arguments)
        var folders = o.fontPaths
        if let name = o.template {
            var files: [String] = []
            switch TemplateLoader.load(name, files: &files) {
            case .success(let t): folders += t.fontFolders
            case .failure(let d):
                diagnostics.append(d)
                report()
                return 1
            }
        }
        diagnostics.append(contentsOf: ProjectFonts.add(folders))
        report()
        if let name = o.resolve {
            let r = FontCatalog.resolve(name)
            io.writeOutput(Data((o.json ? prettyJSON(r) : DiagnosticRenderer.escapingControls(Self.text(r), keepingNewlines: true)).utf8))
            return 0
        }
        let faces = FontCatalog.faces()
        io.writeOutput(Data((o.json ? prettyJSON(Self.families(faces)) : Self.text(faces)).utf8))
        return 0
    }

    struct Family: Encodable {
        var family: String
        var faces: [FontCatalog.Face]
    }

    static func families(_ faces: [FontCatalog.Face]) -> [Family] {
        var out: [Family] = []
        for f in faces {
            if out.last?.family == f.family { out[out.count - 1].faces.append(f) } else { out.append(Family(family: f.family, faces: [f])) }
        }
        return out
    }

    /// "DejaVu Serif" and, indented under it, each style with its file.
    static func text(_ faces: [FontCatalog.Face]) -> String {
        var s = ""
        for family in families(faces) {
            s += family.family + "\n"
            let width = (family.faces.map(\.style.count).max() ?? 0) + 2
            for f in family.faces {
                s += "  " + f.style.padded(to: width) + f.file + (f.index > 0 ? " (face \(f.index))" : "") + "\n"
            }
        }
        return s
    }

    /// "Didot Bold → C059 Bold, /usr/share/…/C059-Bold.otf" and why.
    static func text(_ r: FontCatalog.Resolution) -> String {
        guard let f = r.face else { return "\(r.name): no face at all (fontconfig lists no fonts)\n" }
        var s = "\(r.name) → \(f.family) \(f.style), \(f.file)\n"
        if FaceClasses.isGeneric(r.name) {
            s += "  a generic family: the system's default for it\n"
        } else if let reason = r.reason {
            s += "  '\(r.name)' is not installed; using '\(f.family)' (\(reason))\n"
        } else {
            s += "  installed\n"
        }
        return s
    }
}
