import Foundation
import GalleyCLI

exit(Galley.main(arguments: Array(CommandLine.arguments.dropFirst()), io: .process()))
