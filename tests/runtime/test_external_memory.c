/* External memory across GPU APIs (tflaccel.h's tflaccel_tensor_buffer_export):
 * gpu_vk exports the device buffers of a compiled model's inputs as opaque
 * fds, written through the exporter; another compiled model, in an
 * environment of its own, wraps them as its inputs and runs with no host
 * copy, giving exactly its host run's outputs:
 *   (a) gpu_vk into gpu_vk (lavapipe: VK_KHR_external_memory_fd; runs in CI);
 *   (b) gpu_vk into gpu_gl (GL_EXT_memory_object_fd), where the GL device's
 *       and driver's UUIDs equal Vulkan's, else skipped with the reason;
 *   (c) gpu_vk into gpu_cl (cl_khr_external_memory_opaque_fd: NVIDIA); on
 *       a driver without it (PoCL), the wrap's error names the extension.
 * Bad input (a closed fd, a number that is no fd, an allocation smaller
 * than offset + size, a misaligned offset, a dma-buf without the
 * extension, exports of what cannot be exported) gets one-line errors and
 * leaves no fd open. Without gpu_vk (or its VK_KHR_external_memory_fd)
 * every case says so and passes over. */
#include "config.h"

#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/runtime/device_buffer_fixture.h"
#include "tests/support/test_util.h"
#include "tflaccel/tflaccel.h"

#define MODEL "hand_recrop.tflite"

static void expect_ok(tflaccel_status status) {
  ck_assert_msg(status == NULL, "%s", tflaccel_status_message(status));
}

/* Open file descriptors of the process (a leak shows as a higher count). */
static int open_fd_count(void) {
  DIR *directory = opendir("/proc/self/fd");
  ck_assert_ptr_nonnull(directory);
  int count = 0;
  for (struct dirent *entry = readdir(directory); entry != NULL; entry = readdir(directory))
    if (entry->d_name[0] != '.') ++count;
  closedir(directory);
  return count;
}

static int lists_type(const tflaccel_buffer_requirements *wanted, int32_t type) {
  for (uint32_t t = 0; t < wanted->type_count; ++t)
    if (wanted->types[t] == type) return 1;
  return 0;
}

/* gpu_vk's compiled model with its inputs in exported device buffers. */
typedef struct exporter {
  device_fixture fixture;
  tflaccel_tensor_buffer *inputs[FIXTURE_MAX_TENSORS];
  tflaccel_native_buffer fds[FIXTURE_MAX_TENSORS]; /* the exports; the test closes them */
  tflaccel_native_device device;                    /* of input 0 */
} exporter;

/* 0 (with the reason printed) when gpu_vk or its opaque fds are missing. */
static int exporter_open(exporter *self) {
  memset(self, 0, sizeof *self);
  if (!device_fixture_open(&self->fixture, "gpu_vk", MODEL)) return 0;
  device_fixture *fixture = &self->fixture;
  self->device.struct_size = sizeof self->device;
  expect_ok(tflaccel_compiled_model_native_device(fixture->compiled, 0, 0, &self->device));
  for (uint32_t i = 0; i < fixture->input_count; ++i) {
    expect_ok(tflaccel_compiled_model_create_input_device_buffer(fixture->compiled, i,
                                                                 TFLACCEL_BUFFER_VULKAN,
                                                                 &self->inputs[i]));
    self->fds[i].struct_size = sizeof self->fds[i];
    tflaccel_status status =
        tflaccel_tensor_buffer_export(self->inputs[i], TFLACCEL_BUFFER_OPAQUE_FD, &self->fds[i]);
    if (status != NULL && i == 0 && strstr(tflaccel_status_message(status), "VK_KHR_external_memory_fd")) {
      printf("skipped: %s\n", tflaccel_status_message(status));
      tflaccel_status_free(status);
      tflaccel_tensor_buffer_destroy(self->inputs[0]);
      device_fixture_close(fixture);
      return 0;
    }
    expect_ok(status);
    const tflaccel_native_buffer *fd = &self->fds[i];
    size_t bytes = tflaccel_tensor_buffer_byte_size(self->inputs[i]);
    ck_assert_int_eq(fd->type, TFLACCEL_BUFFER_OPAQUE_FD);
    ck_assert_uint_le(fd->handle, (uint64_t)INT32_MAX);
    ck_assert_uint_eq(fd->offset, 0);
    ck_assert_uint_eq(fd->size, bytes);
    ck_assert_uint_ge(fd->memory, bytes);
    /* Written through the exporter after the export: the bytes reach the
     * exported memory before the write returns. */
    expect_ok(tflaccel_tensor_buffer_write(self->inputs[i],
                                           tflaccel_tensor_buffer_data(fixture->inputs[i]), bytes));
  }
  return 1;
}

static void exporter_close(exporter *self) {
  for (uint32_t i = 0; i < self->fixture.input_count; ++i) {
    if (self->fds[i].struct_size != 0) close((int)self->fds[i].handle);
    tflaccel_tensor_buffer_destroy(self->inputs[i]);
  }
  device_fixture_close(&self->fixture);
}

/* Every input of the importer's model wraps the exporter's fd; its outputs
 * are device buffers of its own type: the run copies nothing through the
 * host and gives the host run's outputs. The fds are closed after the
 * wraps (the importer keeps what it needs). */
static void run_on_exported_inputs(exporter *source, device_fixture *importer, int32_t own_type,
                                   const char *name) {
  tflaccel_tensor_buffer *inputs[FIXTURE_MAX_TENSORS] = {0}, *outputs[FIXTURE_MAX_TENSORS] = {0};
  ck_assert_uint_eq(importer->input_count, source->fixture.input_count);
  for (uint32_t i = 0; i < importer->input_count; ++i) {
    expect_ok(tflaccel_compiled_model_wrap_input_buffer(importer->compiled, i, &source->fds[i],
                                                        &inputs[i]));
    ck_assert_int_eq(tflaccel_tensor_buffer_type(inputs[i]), TFLACCEL_BUFFER_OPAQUE_FD);
    close((int)source->fds[i].handle);
    source->fds[i].struct_size = 0; /* closed */
  }
  for (uint32_t i = 0; i < importer->output_count; ++i)
    expect_ok(tflaccel_compiled_model_create_output_device_buffer(importer->compiled, i, own_type,
                                                                  &outputs[i]));
  for (int run = 0; run < 2; ++run) {
    expect_ok(tflaccel_compiled_model_run(importer->compiled, inputs, importer->input_count, outputs,
                                          importer->output_count));
    tflaccel_run_stats stats = {.struct_size = sizeof stats};
    expect_ok(tflaccel_compiled_model_last_run_stats(importer->compiled, &stats));
    ck_assert_uint_eq(stats.host_copies, 0);
    ck_assert_uint_eq(stats.host_copy_bytes, 0);
    for (uint32_t i = 0; i < importer->output_count; ++i)
      device_fixture_check_output(importer, i, outputs[i]);
  }
  device_fixture_destroy_buffers(inputs, importer->input_count);
  device_fixture_destroy_buffers(outputs, importer->output_count);
  printf("%s: gpu_vk's exported opaque fds as inputs: outputs equal the host run's, 0 host "
         "copies\n",
         name);
}

/* The importer's requirements for input 0, and its native device. */
static void importer_describe(const device_fixture *importer, tflaccel_buffer_requirements *wanted,
                              tflaccel_native_device *device) {
  wanted->struct_size = sizeof *wanted;
  expect_ok(tflaccel_compiled_model_input_buffer_requirements(importer->compiled, 0, wanted));
  device->struct_size = sizeof *device;
  expect_ok(tflaccel_compiled_model_native_device(importer->compiled, 0, 0, device));
}

static int uuid_is_zero(const uint8_t *uuid) {
  for (int i = 0; i < 16; ++i)
    if (uuid[i] != 0) return 0;
  return 1;
}

START_TEST(vk_into_vk) {
  exporter source;
  if (!exporter_open(&source)) return;
  device_fixture importer;
  ck_assert(device_fixture_open(&importer, "gpu_vk", MODEL));
  tflaccel_buffer_requirements wanted;
  tflaccel_native_device device;
  importer_describe(&importer, &wanted, &device);
  ck_assert_msg(lists_type(&wanted, TFLACCEL_BUFFER_OPAQUE_FD),
                "gpu_vk exports opaque fds but does not list them as an input type");
  ck_assert_msg(memcmp(device.device_uuid, source.device.device_uuid, 16) == 0 &&
                    !uuid_is_zero(device.device_uuid),
                "two environments of gpu_vk on one device name different device UUIDs");
  run_on_exported_inputs(&source, &importer, TFLACCEL_BUFFER_VULKAN, "gpu_vk");
  device_fixture_close(&importer);
  exporter_close(&source);
}
END_TEST

/* The importer's side of gpu_vk's exported inputs (vk_into_gl,
 * vk_into_cl): with the plugin absent the test has nothing to run; if it
 * does not list opaque fds its wrap must refuse them naming `extension`;
 * if its UUIDs are not the exporter's (`same_memory` says) it says why it
 * cannot import here; else model B runs on them. */
static void import_into(const char *plugin, int32_t buffer_type, const char *extension,
                        int (*same_memory)(const tflaccel_native_device *importer,
                                           const tflaccel_native_device *exporter),
                        const char *why_not) {
  exporter source;
  if (!exporter_open(&source)) return;
  device_fixture importer;
  if (!device_fixture_open(&importer, plugin, MODEL)) {
    exporter_close(&source);
    return;
  }
  tflaccel_buffer_requirements wanted;
  tflaccel_native_device device;
  importer_describe(&importer, &wanted, &device);
  if (!lists_type(&wanted, TFLACCEL_BUFFER_OPAQUE_FD)) {
    tflaccel_tensor_buffer *buffer = NULL;
    tflaccel_status status =
        tflaccel_compiled_model_wrap_input_buffer(importer.compiled, 0, &source.fds[0], &buffer);
    ck_assert_ptr_null(buffer);
    printf("skipped: %s\n", tflaccel_status_message(status));
    fixture_expect_error(status, -1, extension);
  } else if (!same_memory(&device, &source.device)) {
    printf("skipped: %s\n", why_not);
  } else {
    run_on_exported_inputs(&source, &importer, buffer_type, plugin);
  }
  device_fixture_close(&importer);
  exporter_close(&source);
}

/* GL names the device and the driver as Vulkan does (GL_EXT_memory_object). */
static int gl_imports_from(const tflaccel_native_device *gl, const tflaccel_native_device *vk) {
  return !uuid_is_zero(gl->device_uuid) && memcmp(gl->device_uuid, vk->device_uuid, 16) == 0 &&
         memcmp(gl->driver_uuid, vk->driver_uuid, 16) == 0;
}

/* The device's UUID only: an OpenCL driver is another driver than
 * Vulkan's (NVIDIA's CL_DRIVER_UUID_KHR differs from Vulkan's driverUUID),
 * and Khronos's CL/Vulkan interop tests match devices so; a driver that
 * names no UUID is tried. */
static int cl_imports_from(const tflaccel_native_device *cl, const tflaccel_native_device *vk) {
  return uuid_is_zero(cl->device_uuid) || memcmp(cl->device_uuid, vk->device_uuid, 16) == 0;
}

START_TEST(vk_into_gl) {
  import_into("gpu_gl", TFLACCEL_BUFFER_GL, "GL_EXT_memory_object_fd", gl_imports_from,
              "gpu_gl's GL device/driver UUIDs differ from gpu_vk's Vulkan ones (another "
              "device or driver): its opaque fds cannot be imported here");
}
END_TEST

START_TEST(vk_into_cl) {
  import_into("gpu_cl", TFLACCEL_BUFFER_OPENCL, "cl_khr_external_memory_opaque_fd",
              cl_imports_from,
              "gpu_cl's OpenCL device UUID differs from gpu_vk's Vulkan one (another device): "
              "its opaque fds cannot be imported here");
}
END_TEST

/* Wrapping fd on input 0 of compiled fails with fragment; nothing made. */
static void expect_wrap_error(tflaccel_compiled_model *compiled, const tflaccel_native_buffer *fd,
                              const char *fragment) {
  tflaccel_tensor_buffer *buffer = NULL;
  fixture_expect_error(tflaccel_compiled_model_wrap_input_buffer(compiled, 0, fd, &buffer), -1,
                       fragment);
  ck_assert_ptr_null(buffer);
}

/* The fd faults every importer checks alike. */
static void refuse_bad_fds(tflaccel_compiled_model *compiled, const tflaccel_native_buffer *good) {
  int closed = dup((int)good->handle);
  ck_assert_int_ge(closed, 0);
  close(closed);
  tflaccel_native_buffer wrong = *good;
  wrong.handle = (uint64_t)closed;
  expect_wrap_error(compiled, &wrong, "is not an open file descriptor");
  wrong = *good;
  wrong.handle = 1ull << 40;
  expect_wrap_error(compiled, &wrong, "is not a file descriptor");
  wrong = *good;
  wrong.memory = good->size / 2;
  expect_wrap_error(compiled, &wrong, "lies beyond the fd's allocation");
  wrong = *good;
  wrong.memory = 0;
  expect_wrap_error(compiled, &wrong, "allocation's byte size");
  wrong = *good;
  wrong.offset = 4;
  expect_wrap_error(compiled, &wrong, "is not a multiple of");
}

/* Open fds are counted within each importer's life: a driver may keep its
 * device files open after its last context is gone (NVIDIA's do), so a
 * count from before a driver's first use says nothing about our fds. */
START_TEST(bad_external_memory_is_refused) {
  exporter source;
  if (!exporter_open(&source)) return;
  device_fixture importer;
  ck_assert(device_fixture_open(&importer, "gpu_vk", MODEL));
  int fds_open = open_fd_count();
  refuse_bad_fds(importer.compiled, &source.fds[0]);
  tflaccel_native_buffer wrong = source.fds[0];
  wrong.type = TFLACCEL_BUFFER_DMABUF;
  expect_wrap_error(importer.compiled, &wrong, "VK_EXT_external_memory_dma_buf");

  /* Exports: only external memory types, only device buffers, only the
   * accelerator's own (not an import of someone else's). */
  tflaccel_native_buffer native = {.struct_size = sizeof native};
  fixture_expect_error(
      tflaccel_tensor_buffer_export(source.inputs[0], TFLACCEL_BUFFER_VULKAN, &native), -1,
      "not external memory");
  fixture_expect_error(
      tflaccel_tensor_buffer_export(source.inputs[0], TFLACCEL_BUFFER_DMABUF, &native), -1,
      "VK_EXT_external_memory_dma_buf");
  fixture_expect_error(
      tflaccel_tensor_buffer_export(source.fixture.inputs[0], TFLACCEL_BUFFER_OPAQUE_FD, &native),
      -1, "host buffer");
  fixture_expect_error(tflaccel_tensor_buffer_export(NULL, TFLACCEL_BUFFER_OPAQUE_FD, &native), -1,
                       "NULL");
  tflaccel_tensor_buffer *imported = NULL;
  expect_ok(tflaccel_compiled_model_wrap_input_buffer(importer.compiled, 0, &source.fds[0],
                                                      &imported));
  fixture_expect_error(tflaccel_tensor_buffer_export(imported, TFLACCEL_BUFFER_OPAQUE_FD, &native),
                       -1, "only buffers gpu_vk made");
  tflaccel_tensor_buffer_destroy(imported);
  ck_assert_int_eq(open_fd_count(), fds_open);

  /* gpu_gl and gpu_cl check the same faults, and name what they lack. */
  device_fixture gl;
  if (device_fixture_open(&gl, "gpu_gl", MODEL)) {
    tflaccel_buffer_requirements wanted;
    tflaccel_native_device device;
    importer_describe(&gl, &wanted, &device);
    int fds_gl = open_fd_count();
    if (lists_type(&wanted, TFLACCEL_BUFFER_OPAQUE_FD)) refuse_bad_fds(gl.compiled, &source.fds[0]);
    expect_wrap_error(gl.compiled, &wrong, "dma-buf");
    ck_assert_int_eq(open_fd_count(), fds_gl);
    device_fixture_close(&gl);
  }
  device_fixture cl;
  if (device_fixture_open(&cl, "gpu_cl", MODEL)) {
    tflaccel_buffer_requirements wanted;
    tflaccel_native_device device;
    importer_describe(&cl, &wanted, &device);
    int fds_cl = open_fd_count();
    if (lists_type(&wanted, TFLACCEL_BUFFER_OPAQUE_FD)) refuse_bad_fds(cl.compiled, &source.fds[0]);
    else expect_wrap_error(cl.compiled, &source.fds[0], "cl_khr_external_memory_opaque_fd");
    expect_wrap_error(cl.compiled, &wrong, "cl_khr_external_memory_dma_buf");
    ck_assert_int_eq(open_fd_count(), fds_cl);
    device_fixture_close(&cl);
  }
  device_fixture_close(&importer);
  /* The exported fds are the test's to close, and closing them is all it takes. */
  int fds_exported = 0;
  for (uint32_t i = 0; i < source.fixture.input_count; ++i)
    fds_exported += source.fds[i].struct_size != 0;
  int fds_with_exports = open_fd_count();
  exporter_close(&source);
  ck_assert_int_le(open_fd_count(), fds_with_exports - fds_exported);
  printf("bad external memory: one-line errors, no fd left open\n");
}
END_TEST

int main(void) {
  Suite *suite = suite_create("external_memory");
  TCase *tcase = tcase_create("external_memory");
  tcase_set_timeout(tcase, 600);
  tcase_add_test(tcase, vk_into_vk);
  tcase_add_test(tcase, vk_into_gl);
  tcase_add_test(tcase, vk_into_cl);
  tcase_add_test(tcase, bad_external_memory_is_refused);
  suite_add_tcase(suite, tcase);
  return test_run_suite(suite);
}
