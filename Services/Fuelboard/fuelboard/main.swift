import FuelboardCLI
import Foundation

exit(Fuelboard.main(Array(CommandLine.arguments.dropFirst())))
