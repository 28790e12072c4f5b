/* The model's token and file name (model.h). */
#include "config.h"

#include <string.h>

#include "core/facts/sha256.h"
#include "core/graph/model.h"
#include "core/graph/model_internal.h"

const char *model_token(const tflaccel_model *model) {
  /* The token is a cache of the bytes, not a change of the model: the
   * lock makes the first computation once, whatever the threads. */
  tflaccel_model *self = (tflaccel_model *)model;
  pthread_mutex_lock(&self->token_lock);
  if (self->token[0] == '\0') {
    unsigned char digest[SHA256_DIGEST_SIZE];
    sha256_of(self->bytes, self->size, digest);
    sha256_hex(digest, self->token);
  }
  pthread_mutex_unlock(&self->token_lock);
  return self->token;
}

const char *model_file_name(const tflaccel_model *model) {
  return model->file_name != NULL ? model->file_name : "";
}
