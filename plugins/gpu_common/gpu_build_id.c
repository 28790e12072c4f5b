/* The plugin's own GNU build ID, read from its loaded ELF notes (gpu_build_id.h). */
#define _GNU_SOURCE
#include "config.h"

#include <elf.h>
#include <link.h>
#include <string.h>

#include "plugins/gpu_common/gpu_build_id.h"

typedef struct build_id_search {
  uintptr_t address; /* of code in the object sought */
  uint8_t *id;
  size_t capacity;
  size_t size;
} build_id_search;

static size_t note_align(size_t size) { return (size + 3u) & ~(size_t)3u; }

/* The NT_GNU_BUILD_ID note among the notes of one PT_NOTE segment. */
static size_t find_in_notes(const uint8_t *notes, size_t size, build_id_search *search) {
  size_t at = 0;
  while (at + sizeof(ElfW(Nhdr)) <= size) {
    ElfW(Nhdr) header;
    memcpy(&header, notes + at, sizeof header);
    size_t name_at = at + sizeof header;
    size_t desc_at = name_at + note_align(header.n_namesz);
    size_t next = desc_at + note_align(header.n_descsz);
    if (desc_at > size || header.n_descsz > size - desc_at) return 0;
    if (header.n_type == NT_GNU_BUILD_ID && header.n_namesz == 4 &&
        memcmp(notes + name_at, "GNU", 4) == 0) {
      size_t length = header.n_descsz < search->capacity ? header.n_descsz : search->capacity;
      memcpy(search->id, notes + desc_at, length);
      return length;
    }
    at = next;
  }
  return 0;
}

static int visit(struct dl_phdr_info *info, size_t info_size, void *data) {
  build_id_search *search = data;
  (void)info_size;
  int holds = 0;
  for (ElfW(Half) i = 0; i < info->dlpi_phnum && !holds; ++i) {
    const ElfW(Phdr) *segment = &info->dlpi_phdr[i];
    uintptr_t start = info->dlpi_addr + segment->p_vaddr;
    holds = segment->p_type == PT_LOAD && search->address >= start &&
            search->address - start < segment->p_memsz;
  }
  if (!holds) return 0;
  for (ElfW(Half) i = 0; i < info->dlpi_phnum && search->size == 0; ++i) {
    const ElfW(Phdr) *segment = &info->dlpi_phdr[i];
    if (segment->p_type != PT_NOTE) continue;
    search->size = find_in_notes((const uint8_t *)(info->dlpi_addr + segment->p_vaddr),
                                 segment->p_memsz, search);
  }
  return 1; /* the object is found: stop */
}

size_t gpu_build_id(uint8_t *id, size_t capacity) {
  build_id_search search = {
      .address = (uintptr_t)&gpu_build_id, .id = id, .capacity = capacity, .size = 0};
  dl_iterate_phdr(visit, &search);
  return search.size;
}
