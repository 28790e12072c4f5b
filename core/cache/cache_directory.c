/* The cache directory (cache_directory.h). */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/cache/cache_directory.h"
#include "core/cache/cache_file.h"

int cache_directory_make(const char *path, int with_parents) {
  char partial[4096];
  size_t length = strlen(path);
  if (length == 0) return EINVAL;
  if (length >= sizeof partial) return ENAMETOOLONG;
  if (!with_parents) return mkdir(path, S_IRWXU) != 0 && errno != EEXIST ? errno : 0;
  memcpy(partial, path, length + 1);
  for (size_t i = 1; i <= length; ++i) {
    if (partial[i] != '/' && partial[i] != '\0') continue;
    char saved = partial[i];
    partial[i] = '\0';
    if (mkdir(partial, S_IRWXU) != 0 && errno != EEXIST) return errno;
    partial[i] = saved;
  }
  return 0;
}

const char *cache_directory_check_private(const char *path, char *why, size_t why_size) {
  struct stat info;
  if (stat(path, &info) != 0) {
    snprintf(why, why_size, "%s", strerror(errno));
    return why;
  }
  if (!S_ISDIR(info.st_mode)) {
    snprintf(why, why_size, "not a directory");
    return why;
  }
  if (info.st_uid != geteuid()) {
    snprintf(why, why_size, "owned by uid %ld, not this user", (long)info.st_uid);
    return why;
  }
  if ((info.st_mode & (S_IWGRP | S_IWOTH)) != 0) {
    snprintf(why, why_size, "writable by %s (mode %03o)",
             (info.st_mode & S_IWOTH) ? "everyone" : "its group",
             (unsigned)(info.st_mode & 0777));
    return why;
  }
  if (access(path, R_OK | W_OK | X_OK) != 0) {
    snprintf(why, why_size, "not writable: %s", strerror(errno));
    return why;
  }
  return NULL;
}

static int by_last_use(const void *a, const void *b) {
  const cache_directory_entry *x = a, *y = b;
  if (x->last_use != y->last_use) return x->last_use < y->last_use ? -1 : 1;
  return strcmp(x->name, y->name);
}

static void read_label(const char *path, cache_directory_entry *entry) {
  int fd = -1;
  uint64_t size = 0;
  cache_entry_header header;
  entry->problem = "unreadable";
  if (cache_file_open(path, entry->name, &fd, &size) != 0) return;
  if (cache_file_read_all(fd, &header, sizeof header) == 0) {
    entry->problem = cache_entry_check_header(&header, size);
    if (entry->problem == NULL) {
      snprintf(entry->label, sizeof entry->label, "%s", header.label);
      snprintf(entry->model, sizeof entry->model, "%s", header.model);
    }
  } else {
    entry->problem = "truncated";
  }
  close(fd);
}

/* Entries (and, with temporaries, the temporary files) of path. */
static int scan(const char *path, int with_labels, int temporaries, cache_directory_entry **out,
                uint32_t *count_out) {
  *out = NULL;
  *count_out = 0;
  DIR *directory = opendir(path);
  if (directory == NULL) return errno;
  cache_directory_entry *entries = NULL;
  uint32_t count = 0, capacity = 0;
  int error = 0;
  struct dirent *item;
  while ((item = readdir(directory)) != NULL) {
    cache_directory_entry entry;
    memset(&entry, 0, sizeof entry);
    int is_temporary = temporaries && strncmp(item->d_name, CACHE_ENTRY_TEMPORARY_PREFIX,
                                              strlen(CACHE_ENTRY_TEMPORARY_PREFIX)) == 0;
    if (!is_temporary && !cache_entry_name_parse(item->d_name, entry.owner, sizeof entry.owner))
      continue;
    size_t name_length = strlen(item->d_name);
    if (name_length >= sizeof entry.name) continue;
    memcpy(entry.name, item->d_name, name_length + 1);
    struct stat info;
    char full[4096];
    if (snprintf(full, sizeof full, "%s/%s", path, item->d_name) >= (int)sizeof full ||
        lstat(full, &info) != 0)
      continue;
    entry.size = S_ISREG(info.st_mode) ? (uint64_t)info.st_size : 0;
    entry.last_use = info.st_mtime;
    if (!S_ISREG(info.st_mode)) entry.problem = "not a regular file";
    else if (with_labels && !is_temporary) read_label(path, &entry);
    if (is_temporary) entry.problem = "temporary";
    if (count == capacity) {
      uint32_t grown = capacity ? 2 * capacity : 32;
      cache_directory_entry *more = realloc(entries, grown * sizeof *entries);
      if (more == NULL) {
        error = ENOMEM;
        break;
      }
      entries = more;
      capacity = grown;
    }
    entries[count++] = entry;
  }
  closedir(directory);
  if (error != 0) {
    free(entries);
    return error;
  }
  if (count > 0) qsort(entries, count, sizeof *entries, by_last_use);
  *out = entries;
  *count_out = count;
  return 0;
}

int cache_directory_list(const char *path, cache_directory_entry **entries, uint32_t *count) {
  return scan(path, 1, 0, entries, count);
}

static int remove_entry(const char *path, const char *name) {
  char full[4096];
  if (snprintf(full, sizeof full, "%s/%s", path, name) >= (int)sizeof full) return 0;
  return unlink(full) == 0;
}

int cache_directory_evict(const char *path, uint64_t max_bytes, uint32_t *removed,
                          uint64_t *kept_bytes) {
  *removed = 0;
  *kept_bytes = 0;
  cache_directory_entry *entries = NULL;
  uint32_t count = 0;
  int error = scan(path, 0, 1, &entries, &count);
  if (error != 0) return error;
  uint64_t total = 0;
  time_t now = time(NULL);
  for (uint32_t i = 0; i < count; ++i) {
    if (entries[i].problem != NULL && !strcmp(entries[i].problem, "temporary")) {
      if (now - entries[i].last_use > 3600 && remove_entry(path, entries[i].name)) ++*removed;
      entries[i].size = 0;
      entries[i].name[0] = '\0';
    }
    total += entries[i].size;
  }
  /* Oldest use first: those go until the rest fit. */
  for (uint32_t i = 0; i < count && total > max_bytes; ++i) {
    if (entries[i].name[0] == '\0') continue;
    if (remove_entry(path, entries[i].name)) {
      total -= entries[i].size;
      ++*removed;
    }
  }
  *kept_bytes = total;
  free(entries);
  return 0;
}

int cache_directory_clear(const char *path, uint32_t *removed) {
  *removed = 0;
  cache_directory_entry *entries = NULL;
  uint32_t count = 0;
  int error = scan(path, 0, 1, &entries, &count);
  if (error != 0) return error;
  for (uint32_t i = 0; i < count; ++i)
    if (remove_entry(path, entries[i].name)) ++*removed;
  free(entries);
  return 0;
}
