#include "CCurl.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#if defined(__APPLE__)
static const char *const library_names[] = {"libcurl.4.dylib", "libcurl.dylib"};
#else
static const char *const library_names[] = {"libcurl.so.4", "libcurl.so"};
#endif

static struct {
    CURLcode (*global_init)(long);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *);
    const char *(*easy_strerror)(CURLcode);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
    CURLM *(*multi_init)(void);
    CURLMcode (*multi_cleanup)(CURLM *);
    CURLMcode (*multi_setopt)(CURLM *, CURLMoption, ...);
    CURLMcode (*multi_add_handle)(CURLM *, CURL *);
    CURLMcode (*multi_remove_handle)(CURLM *, CURL *);
    CURLMcode (*multi_perform)(CURLM *, int *);
    CURLMcode (*multi_poll)(CURLM *, struct curl_waitfd *, unsigned int, int, int *);
    CURLMcode (*multi_wakeup)(CURLM *);
    CURLMsg *(*multi_info_read)(CURLM *, int *);
} curl;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static char load_error[512];

static void load(void) {
    void *library = NULL;
    const char *chosen = getenv("AGG_LIBCURL");
    if (chosen != NULL && chosen[0] != '\0') {
        library = dlopen(chosen, RTLD_NOW | RTLD_LOCAL);
    } else {
        for (size_t index = 0; library == NULL && index < sizeof library_names / sizeof *library_names; index++) {
            library = dlopen(library_names[index], RTLD_NOW | RTLD_LOCAL);
        }
    }
    if (library == NULL) {
        snprintf(load_error, sizeof load_error, "cannot load libcurl (%s); install libcurl4 to fetch sources", dlerror());
        return;
    }
#define AGG_LOAD(field, symbol)                                                                             \
    *(void **)&curl.field = dlsym(library, #symbol);                                                      \
    if (curl.field == NULL) {                                                                              \
        snprintf(load_error, sizeof load_error, "the installed libcurl is too old: it lacks %s (7.68 or newer is needed)", #symbol); \
        return;                                                                                            \
    }
    AGG_LOAD(global_init, curl_global_init)
    AGG_LOAD(easy_init, curl_easy_init)
    AGG_LOAD(easy_cleanup, curl_easy_cleanup)
    AGG_LOAD(easy_strerror, curl_easy_strerror)
    AGG_LOAD(easy_setopt, curl_easy_setopt)
    AGG_LOAD(easy_getinfo, curl_easy_getinfo)
    AGG_LOAD(slist_append, curl_slist_append)
    AGG_LOAD(slist_free_all, curl_slist_free_all)
    AGG_LOAD(multi_init, curl_multi_init)
    AGG_LOAD(multi_cleanup, curl_multi_cleanup)
    AGG_LOAD(multi_setopt, curl_multi_setopt)
    AGG_LOAD(multi_add_handle, curl_multi_add_handle)
    AGG_LOAD(multi_remove_handle, curl_multi_remove_handle)
    AGG_LOAD(multi_perform, curl_multi_perform)
    AGG_LOAD(multi_poll, curl_multi_poll)
    AGG_LOAD(multi_wakeup, curl_multi_wakeup)
    AGG_LOAD(multi_info_read, curl_multi_info_read)
#undef AGG_LOAD
    if (curl.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
        snprintf(load_error, sizeof load_error, "libcurl could not be initialised");
    }
}

const char *agg_curl_load(void) {
    pthread_once(&load_once, load);
    return load_error[0] == '\0' ? NULL : load_error;
}

CURL *agg_curl_easy_init(void) { return curl.easy_init(); }
void agg_curl_easy_cleanup(CURL *handle) { curl.easy_cleanup(handle); }
const char *agg_curl_easy_strerror(CURLcode code) { return curl.easy_strerror(code); }
struct curl_slist *agg_curl_slist_append(struct curl_slist *list, const char *line) { return curl.slist_append(list, line); }
void agg_curl_slist_free_all(struct curl_slist *list) { curl.slist_free_all(list); }

CURLcode agg_curl_setopt_long(CURL *handle, CURLoption option, long value) { return curl.easy_setopt(handle, option, value); }
CURLcode agg_curl_setopt_string(CURL *handle, CURLoption option, const char *value) { return curl.easy_setopt(handle, option, value); }
CURLcode agg_curl_setopt_pointer(CURL *handle, CURLoption option, void *value) { return curl.easy_setopt(handle, option, value); }
CURLcode agg_curl_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) { return curl.easy_setopt(handle, option, value); }
CURLcode agg_curl_setopt_write_function(CURL *handle, agg_curl_data_callback callback) { return curl.easy_setopt(handle, CURLOPT_WRITEFUNCTION, callback); }
CURLcode agg_curl_setopt_header_function(CURL *handle, agg_curl_data_callback callback) { return curl.easy_setopt(handle, CURLOPT_HEADERFUNCTION, callback); }

CURLcode agg_curl_getinfo_long(CURL *handle, CURLINFO info, long *value) { return curl.easy_getinfo(handle, info, value); }
CURLcode agg_curl_getinfo_string(CURL *handle, CURLINFO info, char **value) { return curl.easy_getinfo(handle, info, value); }

CURLM *agg_curl_multi_init(void) { return curl.multi_init(); }
CURLMcode agg_curl_multi_cleanup(CURLM *multi) { return curl.multi_cleanup(multi); }
CURLMcode agg_curl_multi_setopt_long(CURLM *multi, CURLMoption option, long value) { return curl.multi_setopt(multi, option, value); }
CURLMcode agg_curl_multi_add_handle(CURLM *multi, CURL *handle) { return curl.multi_add_handle(multi, handle); }
CURLMcode agg_curl_multi_remove_handle(CURLM *multi, CURL *handle) { return curl.multi_remove_handle(multi, handle); }
CURLMcode agg_curl_multi_perform(CURLM *multi, int *running) { return curl.multi_perform(multi, running); }
CURLMcode agg_curl_multi_poll(CURLM *multi, struct curl_waitfd *extra, unsigned int count, int timeout, int *ready) { return curl.multi_poll(multi, extra, count, timeout, ready); }
CURLMcode agg_curl_multi_wakeup(CURLM *multi) { return curl.multi_wakeup(multi); }
CURLMsg *agg_curl_multi_info_read(CURLM *multi, int *queued) { return curl.multi_info_read(multi, queued); }
