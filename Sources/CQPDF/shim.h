// libqpdf's C API (Debian's libqpdf-dev): the press post-pass reads Cairo's PDF, adds what
// PDF/X-4 needs (boxes, output intent, XMP) and writes it again, copying every other object.
//
// libqpdf is opened when the post-pass first runs, not linked: with its C++ runtime and its
// crypto libraries it adds 4 to 6 MiB to every process that maps it, and only `--press`
// builds use it. Each function below calls the library's own through `dlsym`.
#include <dlfcn.h>
#include <qpdf/qpdf-c.h>

/* libqpdf, opened once (NULL when it is not installed). */
static inline void *galley_qpdf_library(void) {
    static void *library;
    if (!library) library = dlopen("libqpdf.so.29", RTLD_LAZY | RTLD_LOCAL);
    if (!library) library = dlopen("libqpdf.so", RTLD_LAZY | RTLD_LOCAL);
    return library;
}

/* Whether every function the post-pass calls is there: check before calling any of them. */
static inline int galley_qpdf_available(void);

/* The library's function `name`. */
static inline void *galley_qpdf_symbol(const char *name) {
    void *library = galley_qpdf_library();
    return library ? dlsym(library, name) : NULL;
}

static inline void galley_qpdf_cleanup(qpdf_data* qpdf) {
    static void (*f)(qpdf_data* qpdf);
    if (!f) f = (void (*)(qpdf_data* qpdf))galley_qpdf_symbol("qpdf_cleanup");
    f(qpdf);
}

static inline qpdf_error galley_qpdf_get_error(qpdf_data qpdf) {
    static qpdf_error (*f)(qpdf_data qpdf);
    if (!f) f = (qpdf_error (*)(qpdf_data qpdf))galley_qpdf_symbol("qpdf_get_error");
    return f(qpdf);
}

static inline char const* galley_qpdf_get_error_full_text(qpdf_data q, qpdf_error e) {
    static char const* (*f)(qpdf_data q, qpdf_error e);
    if (!f) f = (char const* (*)(qpdf_data q, qpdf_error e))galley_qpdf_symbol("qpdf_get_error_full_text");
    return f(q, e);
}

static inline int galley_qpdf_get_num_pages(qpdf_data qpdf) {
    static int (*f)(qpdf_data qpdf);
    if (!f) f = (int (*)(qpdf_data qpdf))galley_qpdf_symbol("qpdf_get_num_pages");
    return f(qpdf);
}

static inline qpdf_oh galley_qpdf_get_object_by_id(qpdf_data qpdf, int objid, int generation) {
    static qpdf_oh (*f)(qpdf_data qpdf, int objid, int generation);
    if (!f) f = (qpdf_oh (*)(qpdf_data qpdf, int objid, int generation))galley_qpdf_symbol("qpdf_get_object_by_id");
    return f(qpdf, objid, generation);
}

static inline qpdf_oh galley_qpdf_get_page_n(qpdf_data qpdf, size_t zero_based_index) {
    static qpdf_oh (*f)(qpdf_data qpdf, size_t zero_based_index);
    if (!f) f = (qpdf_oh (*)(qpdf_data qpdf, size_t zero_based_index))galley_qpdf_symbol("qpdf_get_page_n");
    return f(qpdf, zero_based_index);
}

static inline qpdf_oh galley_qpdf_get_root(qpdf_data qpdf) {
    static qpdf_oh (*f)(qpdf_data qpdf);
    if (!f) f = (qpdf_oh (*)(qpdf_data qpdf))galley_qpdf_symbol("qpdf_get_root");
    return f(qpdf);
}

static inline qpdf_oh galley_qpdf_get_trailer(qpdf_data qpdf) {
    static qpdf_oh (*f)(qpdf_data qpdf);
    if (!f) f = (qpdf_oh (*)(qpdf_data qpdf))galley_qpdf_symbol("qpdf_get_trailer");
    return f(qpdf);
}

static inline QPDF_BOOL galley_qpdf_has_error(qpdf_data qpdf) {
    static QPDF_BOOL (*f)(qpdf_data qpdf);
    if (!f) f = (QPDF_BOOL (*)(qpdf_data qpdf))galley_qpdf_symbol("qpdf_has_error");
    return f(qpdf);
}

static inline qpdf_data galley_qpdf_init(void) {
    static qpdf_data (*f)(void);
    if (!f) f = (qpdf_data (*)(void))galley_qpdf_symbol("qpdf_init");
    return f();
}

static inline QPDF_ERROR_CODE galley_qpdf_init_write(qpdf_data qpdf, char const* filename) {
    static QPDF_ERROR_CODE (*f)(qpdf_data qpdf, char const* filename);
    if (!f) f = (QPDF_ERROR_CODE (*)(qpdf_data qpdf, char const* filename))galley_qpdf_symbol("qpdf_init_write");
    return f(qpdf, filename);
}

static inline qpdf_oh galley_qpdf_make_indirect_object(qpdf_data qpdf, qpdf_oh oh) {
    static qpdf_oh (*f)(qpdf_data qpdf, qpdf_oh oh);
    if (!f) f = (qpdf_oh (*)(qpdf_data qpdf, qpdf_oh oh))galley_qpdf_symbol("qpdf_make_indirect_object");
    return f(qpdf, oh);
}

static inline void galley_qpdf_oh_append_item(qpdf_data qpdf, qpdf_oh oh, qpdf_oh item) {
    static void (*f)(qpdf_data qpdf, qpdf_oh oh, qpdf_oh item);
    if (!f) f = (void (*)(qpdf_data qpdf, qpdf_oh oh, qpdf_oh item))galley_qpdf_symbol("qpdf_oh_append_item");
    f(qpdf, oh, item);
}

static inline qpdf_oh galley_qpdf_oh_get_array_item(qpdf_data qpdf, qpdf_oh oh, int n) {
    static qpdf_oh (*f)(qpdf_data qpdf, qpdf_oh oh, int n);
    if (!f) f = (qpdf_oh (*)(qpdf_data qpdf, qpdf_oh oh, int n))galley_qpdf_symbol("qpdf_oh_get_array_item");
    return f(qpdf, oh, n);
}

static inline int galley_qpdf_oh_get_array_n_items(qpdf_data qpdf, qpdf_oh oh) {
    static int (*f)(qpdf_data qpdf, qpdf_oh oh);
    if (!f) f = (int (*)(qpdf_data qpdf, qpdf_oh oh))galley_qpdf_symbol("qpdf_oh_get_array_n_items");
    return f(qpdf, oh);
}

static inline qpdf_oh galley_qpdf_oh_get_dict(qpdf_data qpdf, qpdf_oh oh) {
    static qpdf_oh (*f)(qpdf_data qpdf, qpdf_oh oh);
    if (!f) f = (qpdf_oh (*)(qpdf_data qpdf, qpdf_oh oh))galley_qpdf_symbol("qpdf_oh_get_dict");
    return f(qpdf, oh);
}

static inline int galley_qpdf_oh_get_int_value_as_int(qpdf_data qpdf, qpdf_oh oh) {
    static int (*f)(qpdf_data qpdf, qpdf_oh oh);
    if (!f) f = (int (*)(qpdf_data qpdf, qpdf_oh oh))galley_qpdf_symbol("qpdf_oh_get_int_value_as_int");
    return f(qpdf, oh);
}

static inline qpdf_oh galley_qpdf_oh_get_key(qpdf_data qpdf, qpdf_oh oh, char const* key) {
    static qpdf_oh (*f)(qpdf_data qpdf, qpdf_oh oh, char const* key);
    if (!f) f = (qpdf_oh (*)(qpdf_data qpdf, qpdf_oh oh, char const* key))galley_qpdf_symbol("qpdf_oh_get_key");
    return f(qpdf, oh, key);
}

static inline char const* galley_qpdf_oh_get_utf8_value(qpdf_data qpdf, qpdf_oh oh) {
    static char const* (*f)(qpdf_data qpdf, qpdf_oh oh);
    if (!f) f = (char const* (*)(qpdf_data qpdf, qpdf_oh oh))galley_qpdf_symbol("qpdf_oh_get_utf8_value");
    return f(qpdf, oh);
}

static inline QPDF_BOOL galley_qpdf_oh_is_array(qpdf_data qpdf, qpdf_oh oh) {
    static QPDF_BOOL (*f)(qpdf_data qpdf, qpdf_oh oh);
    if (!f) f = (QPDF_BOOL (*)(qpdf_data qpdf, qpdf_oh oh))galley_qpdf_symbol("qpdf_oh_is_array");
    return f(qpdf, oh);
}

static inline QPDF_BOOL galley_qpdf_oh_is_dictionary(qpdf_data qpdf, qpdf_oh oh) {
    static QPDF_BOOL (*f)(qpdf_data qpdf, qpdf_oh oh);
    if (!f) f = (QPDF_BOOL (*)(qpdf_data qpdf, qpdf_oh oh))galley_qpdf_symbol("qpdf_oh_is_dictionary");
    return f(qpdf, oh);
}

static inline QPDF_BOOL galley_qpdf_oh_is_indirect(qpdf_data qpdf, qpdf_oh oh) {
    static QPDF_BOOL (*f)(qpdf_data qpdf, qpdf_oh oh);
    if (!f) f = (QPDF_BOOL (*)(qpdf_data qpdf, qpdf_oh oh))galley_qpdf_symbol("qpdf_oh_is_indirect");
    return f(qpdf, oh);
}

static inline QPDF_BOOL galley_qpdf_oh_is_name_and_equals(qpdf_data qpdf, qpdf_oh oh, char const* name) {
    static QPDF_BOOL (*f)(qpdf_data qpdf, qpdf_oh oh, char const* name);
    if (!f) f = (QPDF_BOOL (*)(qpdf_data qpdf, qpdf_oh oh, char const* name))galley_qpdf_symbol("qpdf_oh_is_name_and_equals");
    return f(qpdf, oh, name);
}

static inline QPDF_BOOL galley_qpdf_oh_is_stream(qpdf_data qpdf, qpdf_oh oh) {
    static QPDF_BOOL (*f)(qpdf_data qpdf, qpdf_oh oh);
    if (!f) f = (QPDF_BOOL (*)(qpdf_data qpdf, qpdf_oh oh))galley_qpdf_symbol("qpdf_oh_is_stream");
    return f(qpdf, oh);
}

static inline qpdf_oh galley_qpdf_oh_new_array(qpdf_data qpdf) {
    static qpdf_oh (*f)(qpdf_data qpdf);
    if (!f) f = (qpdf_oh (*)(qpdf_data qpdf))galley_qpdf_symbol("qpdf_oh_new_array");
    return f(qpdf);
}

static inline qpdf_oh galley_qpdf_oh_new_dictionary(qpdf_data qpdf) {
    static qpdf_oh (*f)(qpdf_data qpdf);
    if (!f) f = (qpdf_oh (*)(qpdf_data qpdf))galley_qpdf_symbol("qpdf_oh_new_dictionary");
    return f(qpdf);
}

static inline qpdf_oh galley_qpdf_oh_new_integer(qpdf_data qpdf, long long value) {
    static qpdf_oh (*f)(qpdf_data qpdf, long long value);
    if (!f) f = (qpdf_oh (*)(qpdf_data qpdf, long long value))galley_qpdf_symbol("qpdf_oh_new_integer");
    return f(qpdf, value);
}

static inline qpdf_oh galley_qpdf_oh_new_name(qpdf_data qpdf, char const* name) {
    static qpdf_oh (*f)(qpdf_data qpdf, char const* name);
    if (!f) f = (qpdf_oh (*)(qpdf_data qpdf, char const* name))galley_qpdf_symbol("qpdf_oh_new_name");
    return f(qpdf, name);
}

static inline qpdf_oh galley_qpdf_oh_new_null(qpdf_data qpdf) {
    static qpdf_oh (*f)(qpdf_data qpdf);
    if (!f) f = (qpdf_oh (*)(qpdf_data qpdf))galley_qpdf_symbol("qpdf_oh_new_null");
    return f(qpdf);
}

static inline qpdf_oh galley_qpdf_oh_new_real_from_double(qpdf_data qpdf, double value, int decimal_places) {
    static qpdf_oh (*f)(qpdf_data qpdf, double value, int decimal_places);
    if (!f) f = (qpdf_oh (*)(qpdf_data qpdf, double value, int decimal_places))galley_qpdf_symbol("qpdf_oh_new_real_from_double");
    return f(qpdf, value, decimal_places);
}

static inline qpdf_oh galley_qpdf_oh_new_stream(qpdf_data qpdf) {
    static qpdf_oh (*f)(qpdf_data qpdf);
    if (!f) f = (qpdf_oh (*)(qpdf_data qpdf))galley_qpdf_symbol("qpdf_oh_new_stream");
    return f(qpdf);
}

static inline qpdf_oh galley_qpdf_oh_new_string(qpdf_data qpdf, char const* str) {
    static qpdf_oh (*f)(qpdf_data qpdf, char const* str);
    if (!f) f = (qpdf_oh (*)(qpdf_data qpdf, char const* str))galley_qpdf_symbol("qpdf_oh_new_string");
    return f(qpdf, str);
}

static inline qpdf_oh galley_qpdf_oh_new_unicode_string(qpdf_data qpdf, char const* utf8_str) {
    static qpdf_oh (*f)(qpdf_data qpdf, char const* utf8_str);
    if (!f) f = (qpdf_oh (*)(qpdf_data qpdf, char const* utf8_str))galley_qpdf_symbol("qpdf_oh_new_unicode_string");
    return f(qpdf, utf8_str);
}

static inline qpdf_oh galley_qpdf_oh_parse(qpdf_data qpdf, char const* object_str) {
    static qpdf_oh (*f)(qpdf_data qpdf, char const* object_str);
    if (!f) f = (qpdf_oh (*)(qpdf_data qpdf, char const* object_str))galley_qpdf_symbol("qpdf_oh_parse");
    return f(qpdf, object_str);
}

static inline void galley_qpdf_oh_release(qpdf_data qpdf, qpdf_oh oh) {
    static void (*f)(qpdf_data qpdf, qpdf_oh oh);
    if (!f) f = (void (*)(qpdf_data qpdf, qpdf_oh oh))galley_qpdf_symbol("qpdf_oh_release");
    f(qpdf, oh);
}

static inline void galley_qpdf_oh_replace_key(qpdf_data qpdf, qpdf_oh oh, char const* key, qpdf_oh item) {
    static void (*f)(qpdf_data qpdf, qpdf_oh oh, char const* key, qpdf_oh item);
    if (!f) f = (void (*)(qpdf_data qpdf, qpdf_oh oh, char const* key, qpdf_oh item))galley_qpdf_symbol("qpdf_oh_replace_key");
    f(qpdf, oh, key, item);
}

static inline void galley_qpdf_oh_replace_stream_data(qpdf_data qpdf, qpdf_oh stream_oh, unsigned char const* buf, size_t len, qpdf_oh filter, qpdf_oh decode_parms) {
    static void (*f)(qpdf_data qpdf, qpdf_oh stream_oh, unsigned char const* buf, size_t len, qpdf_oh filter, qpdf_oh decode_parms);
    if (!f) f = (void (*)(qpdf_data qpdf, qpdf_oh stream_oh, unsigned char const* buf, size_t len, qpdf_oh filter, qpdf_oh decode_parms))galley_qpdf_symbol("qpdf_oh_replace_stream_data");
    f(qpdf, stream_oh, buf, len, filter, decode_parms);
}

static inline QPDF_ERROR_CODE galley_qpdf_read(qpdf_data qpdf, char const* filename, char const* password) {
    static QPDF_ERROR_CODE (*f)(qpdf_data qpdf, char const* filename, char const* password);
    if (!f) f = (QPDF_ERROR_CODE (*)(qpdf_data qpdf, char const* filename, char const* password))galley_qpdf_symbol("qpdf_read");
    return f(qpdf, filename, password);
}

static inline void galley_qpdf_set_decode_level(qpdf_data qpdf, enum qpdf_stream_decode_level_e level) {
    static void (*f)(qpdf_data qpdf, enum qpdf_stream_decode_level_e level);
    if (!f) f = (void (*)(qpdf_data qpdf, enum qpdf_stream_decode_level_e level))galley_qpdf_symbol("qpdf_set_decode_level");
    f(qpdf, level);
}

static inline void galley_qpdf_set_deterministic_ID(qpdf_data qpdf, QPDF_BOOL value) {
    static void (*f)(qpdf_data qpdf, QPDF_BOOL value);
    if (!f) f = (void (*)(qpdf_data qpdf, QPDF_BOOL value))galley_qpdf_symbol("qpdf_set_deterministic_ID");
    f(qpdf, value);
}

static inline void galley_qpdf_set_minimum_pdf_version(qpdf_data qpdf, char const* version) {
    static void (*f)(qpdf_data qpdf, char const* version);
    if (!f) f = (void (*)(qpdf_data qpdf, char const* version))galley_qpdf_symbol("qpdf_set_minimum_pdf_version");
    f(qpdf, version);
}

static inline void galley_qpdf_set_object_stream_mode(qpdf_data qpdf, enum qpdf_object_stream_e mode) {
    static void (*f)(qpdf_data qpdf, enum qpdf_object_stream_e mode);
    if (!f) f = (void (*)(qpdf_data qpdf, enum qpdf_object_stream_e mode))galley_qpdf_symbol("qpdf_set_object_stream_mode");
    f(qpdf, mode);
}

static inline void galley_qpdf_set_stream_data_mode(qpdf_data qpdf, enum qpdf_stream_data_e mode) {
    static void (*f)(qpdf_data qpdf, enum qpdf_stream_data_e mode);
    if (!f) f = (void (*)(qpdf_data qpdf, enum qpdf_stream_data_e mode))galley_qpdf_symbol("qpdf_set_stream_data_mode");
    f(qpdf, mode);
}

static inline void galley_qpdf_set_suppress_warnings(qpdf_data qpdf, QPDF_BOOL value) {
    static void (*f)(qpdf_data qpdf, QPDF_BOOL value);
    if (!f) f = (void (*)(qpdf_data qpdf, QPDF_BOOL value))galley_qpdf_symbol("qpdf_set_suppress_warnings");
    f(qpdf, value);
}

static inline void galley_qpdf_silence_errors(qpdf_data qpdf) {
    static void (*f)(qpdf_data qpdf);
    if (!f) f = (void (*)(qpdf_data qpdf))galley_qpdf_symbol("qpdf_silence_errors");
    f(qpdf);
}

static inline QPDF_ERROR_CODE galley_qpdf_write(qpdf_data qpdf) {
    static QPDF_ERROR_CODE (*f)(qpdf_data qpdf);
    if (!f) f = (QPDF_ERROR_CODE (*)(qpdf_data qpdf))galley_qpdf_symbol("qpdf_write");
    return f(qpdf);
}

static inline int galley_qpdf_available(void) {
    return galley_qpdf_library() != NULL &&
        galley_qpdf_symbol("qpdf_cleanup") &&
        galley_qpdf_symbol("qpdf_get_error") &&
        galley_qpdf_symbol("qpdf_get_error_full_text") &&
        galley_qpdf_symbol("qpdf_get_num_pages") &&
        galley_qpdf_symbol("qpdf_get_object_by_id") &&
        galley_qpdf_symbol("qpdf_get_page_n") &&
        galley_qpdf_symbol("qpdf_get_root") &&
        galley_qpdf_symbol("qpdf_get_trailer") &&
        galley_qpdf_symbol("qpdf_has_error") &&
        galley_qpdf_symbol("qpdf_init") &&
        galley_qpdf_symbol("qpdf_init_write") &&
        galley_qpdf_symbol("qpdf_make_indirect_object") &&
        galley_qpdf_symbol("qpdf_oh_append_item") &&
        galley_qpdf_symbol("qpdf_oh_get_array_item") &&
        galley_qpdf_symbol("qpdf_oh_get_array_n_items") &&
        galley_qpdf_symbol("qpdf_oh_get_dict") &&
        galley_qpdf_symbol("qpdf_oh_get_int_value_as_int") &&
        galley_qpdf_symbol("qpdf_oh_get_key") &&
        galley_qpdf_symbol("qpdf_oh_get_utf8_value") &&
        galley_qpdf_symbol("qpdf_oh_is_array") &&
        galley_qpdf_symbol("qpdf_oh_is_dictionary") &&
        galley_qpdf_symbol("qpdf_oh_is_indirect") &&
        galley_qpdf_symbol("qpdf_oh_is_name_and_equals") &&
        galley_qpdf_symbol("qpdf_oh_is_stream") &&
        galley_qpdf_symbol("qpdf_oh_new_array") &&
        galley_qpdf_symbol("qpdf_oh_new_dictionary") &&
        galley_qpdf_symbol("qpdf_oh_new_integer") &&
        galley_qpdf_symbol("qpdf_oh_new_name") &&
        galley_qpdf_symbol("qpdf_oh_new_null") &&
        galley_qpdf_symbol("qpdf_oh_new_real_from_double") &&
        galley_qpdf_symbol("qpdf_oh_new_stream") &&
        galley_qpdf_symbol("qpdf_oh_new_string") &&
        galley_qpdf_symbol("qpdf_oh_new_unicode_string") &&
        galley_qpdf_symbol("qpdf_oh_parse") &&
        galley_qpdf_symbol("qpdf_oh_release") &&
        galley_qpdf_symbol("qpdf_oh_replace_key") &&
        galley_qpdf_symbol("qpdf_oh_replace_stream_data") &&
        galley_qpdf_symbol("qpdf_read") &&
        galley_qpdf_symbol("qpdf_set_decode_level") &&
        galley_qpdf_symbol("qpdf_set_deterministic_ID") &&
        galley_qpdf_symbol("qpdf_set_minimum_pdf_version") &&
        galley_qpdf_symbol("qpdf_set_object_stream_mode") &&
        galley_qpdf_symbol("qpdf_set_stream_data_mode") &&
        galley_qpdf_symbol("qpdf_set_suppress_warnings") &&
        galley_qpdf_symbol("qpdf_silence_errors") &&
        galley_qpdf_symbol("qpdf_write");
}
