// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Statements",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "statements", targets: ["statements"]),
        .library(name: "StatementKit", targets: ["StatementKit"]),
    ],
    targets: [
        .target(name: "StatementKit"),
        .executableTarget(name: "statements", dependencies: ["StatementKit"]),
        .testTarget(name: "StatementKitTests", dependencies: ["StatementKit"], exclude: ["Fixtures"]),
        .testTarget(name: "statementsTests", dependencies: ["statements"]),
    ],
    swiftLanguageModes: [.v6]
)
