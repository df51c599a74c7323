#if canImport(Glibc)
    import Glibc
#endif

/// libFuzzer's entry point for programs that keep their own `main` (SwiftPM gives every executable target
/// one, so libFuzzer's `main` cannot be used). Linked from `libclang_rt.fuzzer` by `-sanitize=fuzzer`.
@_extern(c, "LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// Runs libFuzzer with the process's arguments (corpus folders, `-max_total_time=…`) and exits with its status.
/// - Parameter testOneInput: called with each input; returns 0.
public func runFuzzer(_ testOneInput: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> Never {
    var argc = CommandLine.argc
    var argv = CommandLine.unsafeArgv
    exit(LLVMFuzzerRunDriver(&argc, &argv, testOneInput))
}
