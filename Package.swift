// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Statements",
    platforms: [.macOS(.v15)],
    products: [
        // The product is the command line. StatementKit is the package's own library (its
        // declarations are `package`, not `public`): no other package builds on it, so that
        // its types can change with the tool (see Architecture.md).
        .executable(name: "statements", targets: ["statements"]),
    ],
    targets: [
        .target(name: "StatementKit"),
        .executableTarget(name: "statements", dependencies: ["StatementKit"]),
        .testTarget(name: "StatementKitTests", dependencies: ["StatementKit"], exclude: ["Fixtures"]),
        .testTarget(name: "statementsTests", dependencies: ["statements"]),
    ],
    swiftLanguageModes: [.v6]
)
