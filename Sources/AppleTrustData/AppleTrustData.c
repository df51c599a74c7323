// The generated trust data, embedded in the binary so that atscheck needs no resource files beside it.
// The JSON files are data (scripts/apple-trust/generate.py writes them); this file only carries them.
#include "AppleTrustData.h"

#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wc23-extensions"
static const unsigned char apple_trust[] = {
#embed "apple-trust.json"
};
static const unsigned char log_list[] = {
#embed "log_list.json"
};
#pragma clang diagnostic pop

const unsigned char *atsc_apple_trust_json(void) { return apple_trust; }
size_t atsc_apple_trust_json_size(void) { return sizeof(apple_trust); }
const unsigned char *atsc_apple_log_list_json(void) { return log_list; }
size_t atsc_apple_log_list_json_size(void) { return sizeof(log_list); }
