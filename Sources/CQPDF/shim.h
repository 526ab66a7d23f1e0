// libqpdf's C API (Debian's libqpdf-dev): the press post-pass reads Cairo's PDF, adds what
// PDF/X-4 needs (boxes, output intent, XMP) and writes it again, copying every other object.
//
// libqpdf is opened when the post-pass first runs, not linked: with its C++ runtime and its
// crypto libraries it adds 4 to 6 MiB to every process that maps it, and only `--press`
// builds use it. Each `galley_qpdf_…` function calls the library's own through `dlsym`.
#include <dlfcn.h>
#include <qpdf/qpdf-c.h>

/* libqpdf, opened once (NULL when it is not installed). Threads may race to open it (a press
   build loads it ahead on a thread of its own, and builds run side by side in one process):
   the handle and each function below are read and kept atomically, and dlopen gives the same
   handle to all of them. */
static inline void *galley_qpdf_library(void) {
    static void *library;
    void *l = __atomic_load_n(&library, __ATOMIC_ACQUIRE);
    if (l) return l;
    l = dlopen("libqpdf.so.29", RTLD_LAZY | RTLD_LOCAL);
    if (!l) l = dlopen("libqpdf.so", RTLD_LAZY | RTLD_LOCAL);
    if (l) __atomic_store_n(&library, l, __ATOMIC_RELEASE);
    return l;
}

/* The library's function `name`. */
static inline void *galley_qpdf_symbol(const char *name) {
    void *library = galley_qpdf_library();
    return library ? dlsym(library, name) : NULL;
}

/* The functions the post-pass calls: FUNCTION(result, name, parameters, arguments), and
   PROCEDURE for those that return nothing. */
#define GALLEY_QPDF_FUNCTIONS(FUNCTION, PROCEDURE) \
    PROCEDURE(qpdf_cleanup, (qpdf_data* qpdf), (qpdf)) \
    FUNCTION(qpdf_error, qpdf_get_error, (qpdf_data qpdf), (qpdf)) \
    FUNCTION(char const*, qpdf_get_error_full_text, (qpdf_data q, qpdf_error e), (q, e)) \
    FUNCTION(int, qpdf_get_num_pages, (qpdf_data qpdf), (qpdf)) \
    FUNCTION(qpdf_oh, qpdf_get_object_by_id, (qpdf_data qpdf, int objid, int generation), (qpdf, objid, generation)) \
    FUNCTION(qpdf_oh, qpdf_get_page_n, (qpdf_data qpdf, size_t zero_based_index), (qpdf, zero_based_index)) \
    FUNCTION(qpdf_oh, qpdf_get_root, (qpdf_data qpdf), (qpdf)) \
    FUNCTION(qpdf_oh, qpdf_get_trailer, (qpdf_data qpdf), (qpdf)) \
    FUNCTION(QPDF_BOOL, qpdf_has_error, (qpdf_data qpdf), (qpdf)) \
    FUNCTION(qpdf_data, qpdf_init, (void), ()) \
    FUNCTION(QPDF_ERROR_CODE, qpdf_init_write, (qpdf_data qpdf, char const* filename), (qpdf, filename)) \
    FUNCTION(qpdf_oh, qpdf_make_indirect_object, (qpdf_data qpdf, qpdf_oh oh), (qpdf, oh)) \
    PROCEDURE(qpdf_oh_append_item, (qpdf_data qpdf, qpdf_oh oh, qpdf_oh item), (qpdf, oh, item)) \
    FUNCTION(qpdf_oh, qpdf_oh_get_array_item, (qpdf_data qpdf, qpdf_oh oh, int n), (qpdf, oh, n)) \
    FUNCTION(int, qpdf_oh_get_array_n_items, (qpdf_data qpdf, qpdf_oh oh), (qpdf, oh)) \
    FUNCTION(qpdf_oh, qpdf_oh_get_dict, (qpdf_data qpdf, qpdf_oh oh), (qpdf, oh)) \
    FUNCTION(int, qpdf_oh_get_int_value_as_int, (qpdf_data qpdf, qpdf_oh oh), (qpdf, oh)) \
    FUNCTION(enum qpdf_object_type_e, qpdf_oh_get_type_code, (qpdf_data qpdf, qpdf_oh oh), (qpdf, oh)) \
    FUNCTION(qpdf_oh, qpdf_oh_get_key, (qpdf_data qpdf, qpdf_oh oh, char const* key), (qpdf, oh, key)) \
    FUNCTION(char const*, qpdf_oh_get_utf8_value, (qpdf_data qpdf, qpdf_oh oh), (qpdf, oh)) \
    FUNCTION(QPDF_BOOL, qpdf_oh_has_key, (qpdf_data qpdf, qpdf_oh oh, char const* key), (qpdf, oh, key)) \
    FUNCTION(QPDF_BOOL, qpdf_oh_is_array, (qpdf_data qpdf, qpdf_oh oh), (qpdf, oh)) \
    FUNCTION(QPDF_BOOL, qpdf_oh_is_dictionary, (qpdf_data qpdf, qpdf_oh oh), (qpdf, oh)) \
    FUNCTION(QPDF_BOOL, qpdf_oh_is_indirect, (qpdf_data qpdf, qpdf_oh oh), (qpdf, oh)) \
    FUNCTION(QPDF_BOOL, qpdf_oh_is_name_and_equals, (qpdf_data qpdf, qpdf_oh oh, char const* name), (qpdf, oh, name)) \
    FUNCTION(QPDF_BOOL, qpdf_oh_is_stream, (qpdf_data qpdf, qpdf_oh oh), (qpdf, oh)) \
    FUNCTION(qpdf_oh, qpdf_oh_new_array, (qpdf_data qpdf), (qpdf)) \
    FUNCTION(qpdf_oh, qpdf_oh_new_dictionary, (qpdf_data qpdf), (qpdf)) \
    FUNCTION(qpdf_oh, qpdf_oh_new_integer, (qpdf_data qpdf, long long value), (qpdf, value)) \
    FUNCTION(qpdf_oh, qpdf_oh_new_name, (qpdf_data qpdf, char const* name), (qpdf, name)) \
    FUNCTION(qpdf_oh, qpdf_oh_new_null, (qpdf_data qpdf), (qpdf)) \
    FUNCTION(qpdf_oh, qpdf_oh_new_real_from_double, (qpdf_data qpdf, double value, int decimal_places), (qpdf, value, decimal_places)) \
    FUNCTION(qpdf_oh, qpdf_oh_new_stream, (qpdf_data qpdf), (qpdf)) \
    FUNCTION(qpdf_oh, qpdf_oh_new_string, (qpdf_data qpdf, char const* str), (qpdf, str)) \
    FUNCTION(qpdf_oh, qpdf_oh_new_unicode_string, (qpdf_data qpdf, char const* utf8_str), (qpdf, utf8_str)) \
    FUNCTION(qpdf_oh, qpdf_oh_parse, (qpdf_data qpdf, char const* object_str), (qpdf, object_str)) \
    PROCEDURE(qpdf_oh_release, (qpdf_data qpdf, qpdf_oh oh), (qpdf, oh)) \
    PROCEDURE(qpdf_oh_remove_key, (qpdf_data qpdf, qpdf_oh oh, char const* key), (qpdf, oh, key)) \
    PROCEDURE(qpdf_oh_replace_key, (qpdf_data qpdf, qpdf_oh oh, char const* key, qpdf_oh item), (qpdf, oh, key, item)) \
    PROCEDURE(qpdf_oh_replace_stream_data, (qpdf_data qpdf, qpdf_oh stream_oh, unsigned char const* buf, size_t len, qpdf_oh filter, qpdf_oh decode_parms), (qpdf, stream_oh, buf, len, filter, decode_parms)) \
    FUNCTION(QPDF_ERROR_CODE, qpdf_read_memory, (qpdf_data qpdf, char const* description, char const* buffer, unsigned long long size, char const* password), (qpdf, description, buffer, size, password)) \
    PROCEDURE(qpdf_set_decode_level, (qpdf_data qpdf, enum qpdf_stream_decode_level_e level), (qpdf, level)) \
    PROCEDURE(qpdf_set_deterministic_ID, (qpdf_data qpdf, QPDF_BOOL value), (qpdf, value)) \
    PROCEDURE(qpdf_set_minimum_pdf_version, (qpdf_data qpdf, char const* version), (qpdf, version)) \
    PROCEDURE(qpdf_set_object_stream_mode, (qpdf_data qpdf, enum qpdf_object_stream_e mode), (qpdf, mode)) \
    PROCEDURE(qpdf_set_stream_data_mode, (qpdf_data qpdf, enum qpdf_stream_data_e mode), (qpdf, mode)) \
    PROCEDURE(qpdf_set_suppress_warnings, (qpdf_data qpdf, QPDF_BOOL value), (qpdf, value)) \
    PROCEDURE(qpdf_silence_errors, (qpdf_data qpdf), (qpdf)) \
    FUNCTION(QPDF_ERROR_CODE, qpdf_write, (qpdf_data qpdf), (qpdf))

/* `f`: libqpdf's `name`, looked up on first use and kept (its type is the declaration's). */
#define GALLEY_QPDF_BIND(name) \
    static __typeof__(&name) bound; \
    __typeof__(&name) f = __atomic_load_n(&bound, __ATOMIC_ACQUIRE); \
    if (!f) { \
        f = (__typeof__(&name))galley_qpdf_symbol(#name); \
        __atomic_store_n(&bound, f, __ATOMIC_RELEASE); \
    }
#define GALLEY_QPDF_FUNCTION(result, name, parameters, arguments) \
    static inline result galley_##name parameters { \
        GALLEY_QPDF_BIND(name) \
        return f arguments; \
    }
#define GALLEY_QPDF_PROCEDURE(name, parameters, arguments) \
    static inline void galley_##name parameters { \
        GALLEY_QPDF_BIND(name) \
        f arguments; \
    }
GALLEY_QPDF_FUNCTIONS(GALLEY_QPDF_FUNCTION, GALLEY_QPDF_PROCEDURE)

/* Whether every function the post-pass calls is there: checked before any is called. */
#define GALLEY_QPDF_FOUND(result, name, parameters, arguments) && galley_qpdf_symbol(#name)
#define GALLEY_QPDF_PROCEDURE_FOUND(name, parameters, arguments) && galley_qpdf_symbol(#name)
static inline int galley_qpdf_available(void) {
    return galley_qpdf_library() != NULL GALLEY_QPDF_FUNCTIONS(GALLEY_QPDF_FOUND, GALLEY_QPDF_PROCEDURE_FOUND);
}
