// libdeflate (Debian's libdeflate-dev): its CRC-32, which the layout cache checks entries with.
#include <libdeflate.h>
