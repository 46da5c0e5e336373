#ifndef AGG_CCURL_H
#define AGG_CCURL_H
#include <curl/curl.h>

/* libcurl, loaded on first use instead of linked.

   Linking libcurl makes the dynamic loader map and relocate it and the thirty libraries it
   needs (TLS, Kerberos, LDAP, SSH, ...) in every process, which costs several milliseconds
   before main. Commands that never touch the network (queries, listings) should not pay
   that, so agg opens libcurl with dlopen the first time a transfer is made.

   AGG_LIBCURL, when set, names the library to open instead of libcurl.so.4.

   Call agg_curl_load() before anything else: it returns NULL once libcurl is loaded and
   curl_global_init has succeeded, or a message saying what is missing. The other functions
   have the meaning of the libcurl function of the same name without the agg_ prefix. The
   setopt/getinfo wrappers fix one argument type each, because Swift cannot call the variadic
   curl_easy_setopt, curl_easy_getinfo and curl_multi_setopt. */

const char *agg_curl_load(void);

CURL *agg_curl_easy_init(void);
void agg_curl_easy_cleanup(CURL *handle);
const char *agg_curl_easy_strerror(CURLcode code);
struct curl_slist *agg_curl_slist_append(struct curl_slist *list, const char *line);
void agg_curl_slist_free_all(struct curl_slist *list);

CURLcode agg_curl_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode agg_curl_setopt_string(CURL *handle, CURLoption option, const char *value);
CURLcode agg_curl_setopt_pointer(CURL *handle, CURLoption option, void *value);
CURLcode agg_curl_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value);

typedef size_t (*agg_curl_data_callback)(char *data, size_t size, size_t count, void *context);
CURLcode agg_curl_setopt_write_function(CURL *handle, agg_curl_data_callback callback);
CURLcode agg_curl_setopt_header_function(CURL *handle, agg_curl_data_callback callback);

CURLcode agg_curl_getinfo_long(CURL *handle, CURLINFO info, long *value);
CURLcode agg_curl_getinfo_string(CURL *handle, CURLINFO info, char **value);

CURLM *agg_curl_multi_init(void);
CURLMcode agg_curl_multi_cleanup(CURLM *multi);
CURLMcode agg_curl_multi_setopt_long(CURLM *multi, CURLMoption option, long value);
CURLMcode agg_curl_multi_add_handle(CURLM *multi, CURL *handle);
CURLMcode agg_curl_multi_remove_handle(CURLM *multi, CURL *handle);
CURLMcode agg_curl_multi_perform(CURLM *multi, int *running);
CURLMcode agg_curl_multi_poll(CURLM *multi, struct curl_waitfd *extra, unsigned int count, int timeout, int *ready);
CURLMcode agg_curl_multi_wakeup(CURLM *multi);
CURLMsg *agg_curl_multi_info_read(CURLM *multi, int *queued);

#endif
