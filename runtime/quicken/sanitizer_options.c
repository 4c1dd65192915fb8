/* Default options of the sanitizer runtimes, linked into every program of a build configured with
 * Meson's b_sanitize (meson.build). ASAN_OPTIONS / UBSAN_OPTIONS in the environment still
 * override them: the sanitizer runtimes parse these defaults first, then the environment.
 *
 * detect_leaks=0  CPython does not free everything at exit, by design ("Bugs and caveats" of
 *                 Py_FinalizeEx in the C API manual: "Small amounts of memory allocated by the
 *                 Python interpreter may not be freed"), so LeakSanitizer fails every process at
 *                 exit, starting with the build's own _freeze_module. Reference leaks are what
 *                 matters for an interpreter, and regrtest's -R finds those (docs/sanitizers.md).
 * halt_on_error=1, print_stacktrace=1 (UBSan)
 *                 undefined behaviour is an error, never a line in a log that no one reads: the
 *                 process stops at the first report, so the test that reached it fails.
 *
 * docs/sanitizers.md lists the options, the runs and their results. */

const char *__asan_default_options(void);
const char *__ubsan_default_options(void);

__attribute__((used, visibility("default")))
const char *
__asan_default_options(void)
{
    return "detect_leaks=0";
}

__attribute__((used, visibility("default")))
const char *
__ubsan_default_options(void)
{
    return "halt_on_error=1:print_stacktrace=1";
}
