// libqpdf's C API (Debian's libqpdf-dev): the press post-pass reads Cairo's PDF, adds what
// PDF/X-4 needs (boxes, output intent, XMP) and writes it again, copying every other object.
#include <qpdf/qpdf-c.h>
