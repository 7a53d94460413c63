// Linked into every test program of a sanitized build (cmake/crawldb_target_options.cmake).
//
// GCC 12's LeakSanitizer walks each thread's dynamic TLS at exit, and on Debian 12's glibc it
// reads a garbage slot once the module's libraries (libzstd among them) sit in the process, then
// crashes ("Tracer caught signal 11"). Not intercepting __tls_get_addr keeps it out of dynamic
// TLS; leak detection itself stays on.
extern "C" const char* __asan_default_options() { return "intercept_tls_get_addr=0"; }
