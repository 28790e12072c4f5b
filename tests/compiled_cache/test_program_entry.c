/* The lowered program's cache entry (plugins/gpu_common/gpu_program_cache.h)
 * without a GPU: a hand-made program of a small partition is written
 * through the module's writer and read back field for field, its
 * constants in place; every prefix of its body is refused; and programs
 * that the writer stores intact (the entry's checksum and key pass) but
 * that are inconsistent with themselves or with the partition (a kernel
 * id outside the catalogue, an unknown argument kind, a binding index or
 * tensor that is not the partition's, a range outside the arena or the
 * constants, a wrong binding count, ...) are each refused at read with
 * nothing kept, and an intact entry written over them is read again. */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/registry/host_services.h"
#include "plugins/gpu_common/gpu_build_id.h"
#include "plugins/gpu_common/gpu_program_cache.h"
#include "tests/support/test_util.h"

#define PLUGIN "gpu_test"
#define CONSTANT_BYTES 40
#define ARENA_BYTES 512

/* A graph of three tensors (input, output, a constant) and two ops; the
 * partition runs both ops. */
static const int32_t dims[] = {1, 2, 2, 4};
static uint32_t partition_ops[] = {0, 1};
static uint32_t partition_inputs[] = {0};
static uint32_t partition_outputs[] = {1};

typedef struct fixture {
  char *dir;
  host_plugin_context context;
  tflaccel_host_services host;
  gpu_backend backend;
  tflaccel_tensor_desc tensors[3];
  tflaccel_op_desc ops[2];
  tflaccel_graph_view graph;
  tflaccel_partition_desc partition;
  tflaccel_compile_options options;
  gpu_disk_cache_key key;
} fixture;

static void fixture_open(fixture *f) {
  memset(f, 0, sizeof *f);
  f->dir = test_make_temp_dir();
  snprintf(f->context.plugin_name, sizeof f->context.plugin_name, "%s", PLUGIN);
  f->context.log_level = TFLACCEL_LOG_INFO;
  host_services_fill(&f->host, &f->context, f->dir);
  f->backend = (gpu_backend){.host = &f->host, .plugin_name = PLUGIN};
  for (int t = 0; t < 3; ++t) {
    f->tensors[t] = (tflaccel_tensor_desc){.struct_size = sizeof f->tensors[t],
                                           .dtype = TFLACCEL_DTYPE_FLOAT32,
                                           .rank = 4,
                                           .dims = dims,
                                           .name = "",
                                           .byte_size = 64};
  }
  f->tensors[2].flags = TFLACCEL_TENSOR_CONSTANT;
  f->graph.struct_size = sizeof f->graph;
  f->graph.tensor_count = 3;
  f->graph.tensors = f->tensors;
  f->graph.op_count = 2;
  f->graph.ops = f->ops;
  f->partition = (tflaccel_partition_desc){.struct_size = sizeof f->partition,
                                           .op_count = 2,
                                           .ops = partition_ops,
                                           .input_count = 1,
                                           .inputs = partition_inputs,
                                           .output_count = 1,
                                           .outputs = partition_outputs};
  f->options = (tflaccel_compile_options){.struct_size = sizeof f->options,
                                          .precision = TFLACCEL_PRECISION_FP32,
                                          .model_token = "test-token"};
  gpu_disk_cache_key_builder builder;
  gpu_disk_cache_key_begin(&builder, "test partition");
  gpu_program_cache_key(&builder, &f->key);
}

static void fixture_close(fixture *f) {
  test_remove_tree(f->dir);
  free(f->dir);
}

/* What lowering the partition could give: a conversion of the input into
 * the arena, then a kernel reading it and the constants and storing the
 * output dense. */
static void make_program(fixture *f, gpu_program *program) {
  const tflaccel_host_services *host = &f->host;
  gpu_program_init(program, GPU_STORAGE_FLOAT32);
  program->binding_count = 2;
  program->binding_tensors = host->alloc(host->context, 2 * sizeof(uint32_t), 4);
  program->binding_bytes = host->alloc(host->context, 2 * sizeof(uint64_t), 8);
  ck_assert_ptr_nonnull(program->binding_tensors);
  ck_assert_ptr_nonnull(program->binding_bytes);
  program->binding_tensors[0] = 0;
  program->binding_tensors[1] = 1;
  program->binding_bytes[0] = program->binding_bytes[1] = 64;
  uint64_t constants = 0;
  ck_assert_ptr_null(gpu_program_add_constants(host, program, CONSTANT_BYTES, 16, &constants));
  for (uint32_t i = 0; i < CONSTANT_BYTES / 4; ++i)
    gpu_program_store_constant(program, constants, i, 0.5f * (float)i);
  program->arena_size = ARENA_BYTES;
  /* A variable tensor of 16 values in a state buffer (gpu_state.h). */
  program->state_size = 64;
  program->state_initial = host->alloc(host->context, 64, 16);
  ck_assert_ptr_nonnull(program->state_initial);
  for (uint32_t i = 0; i < 64; ++i) program->state_initial[i] = (uint8_t)(3 * i + 1);

  uint32_t d = 0;
  ck_assert_ptr_null(gpu_program_add_dispatch(host, program, GPU_KERNEL_TO_SLICES, &d));
  gpu_dispatch *dispatch = &program->dispatches[d];
  dispatch->args[0] =
      (gpu_argument){.kind = GPU_BUFFER_ARENA, .arena_offset = 256, .arena_size = 256};
  gpu_program_params(program, d)[0] = 256 / 4;
  dispatch->args[1] = (gpu_argument){.kind = GPU_BUFFER_BINDING, .binding = 0, .offset_unit = 1};
  dispatch->global[0] = 4;
  dispatch->local[0] = 2;

  ck_assert_ptr_null(gpu_program_add_dispatch(host, program, GPU_KERNEL_ELEMENTWISE, &d));
  dispatch = &program->dispatches[d];
  dispatch->args[0] = (gpu_argument){.kind = GPU_BUFFER_BINDING, .binding = 1, .offset_unit = 4};
  dispatch->args[1] =
      (gpu_argument){.kind = GPU_BUFFER_ARENA, .arena_offset = 256, .arena_size = 256};
  gpu_program_params(program, d)[1] = 256 / 4;
  dispatch->args[2] = (gpu_argument){.kind = GPU_BUFFER_CONSTANTS};
  gpu_program_params(program, d)[2] = (int32_t)(constants / 4);
  /* Step 2 of the state tensor (one time step of a sequence op). */
  dispatch->args[3] = (gpu_argument){
      .kind = GPU_BUFFER_STATE, .arena_offset = 0, .arena_size = 64, .element_offset = 2};
  gpu_program_params(program, d)[3] = 2;
  gpu_program_params(program, d)[GPU_P_OUT_DENSE] = 1;
  gpu_program_params(program, d)[GPU_P_POST_COUNT] = 1;
  dispatch->global[0] = 8;
  dispatch->first_op = 0;
  dispatch->op_count = 2;
}

static void assert_same_program(const gpu_program *a, const gpu_program *b,
                                const uint8_t *b_constants) {
  ck_assert_int_eq(a->storage, b->storage);
  ck_assert_uint_eq(a->element_size, b->element_size);
  ck_assert_uint_eq(a->arena_size, b->arena_size);
  ck_assert_uint_eq(a->state_size, b->state_size);
  ck_assert_int_eq(memcmp(a->state_initial, b->state_initial, (size_t)a->state_size), 0);
  ck_assert_uint_eq(a->dispatch_count, b->dispatch_count);
  for (uint32_t i = 0; i < a->dispatch_count; ++i) {
    const gpu_dispatch *x = &a->dispatches[i], *y = &b->dispatches[i];
    ck_assert_int_eq(x->kernel, y->kernel);
    ck_assert_uint_eq(x->params, y->params);
    ck_assert_uint_eq(x->first_op, y->first_op);
    ck_assert_uint_eq(x->op_count, y->op_count);
    for (int k = 0; k < 3; ++k) {
      ck_assert_uint_eq(x->global[k], y->global[k]);
      ck_assert_uint_eq(x->local[k], y->local[k]);
    }
    for (int g = 0; g < GPU_MAX_ARGS; ++g) {
      ck_assert_int_eq(x->args[g].kind, y->args[g].kind);
      ck_assert_uint_eq(x->args[g].binding, y->args[g].binding);
      ck_assert_uint_eq(x->args[g].offset_unit, y->args[g].offset_unit);
      ck_assert_uint_eq(x->args[g].arena_offset, y->args[g].arena_offset);
      ck_assert_uint_eq(x->args[g].arena_size, y->args[g].arena_size);
      ck_assert_uint_eq(x->args[g].element_offset, y->args[g].element_offset);
    }
  }
  ck_assert_int_eq(memcmp(a->params, b->params,
                          (size_t)a->dispatch_count * GPU_PARAMS_PER_DISPATCH * sizeof(int32_t)),
                   0);
  ck_assert_uint_eq(a->binding_count, b->binding_count);
  ck_assert_int_eq(memcmp(a->binding_tensors, b->binding_tensors, a->binding_count * 4), 0);
  ck_assert_int_eq(memcmp(a->binding_bytes, b->binding_bytes, a->binding_count * 8), 0);
  ck_assert_uint_eq(a->constants_size, b->constants_size);
  ck_assert_ptr_null(b->constants); /* they stay in the entry */
  ck_assert_int_eq(memcmp(a->constants, b_constants, (size_t)a->constants_size), 0);
}

START_TEST(program_round_trip) {
  fixture f;
  fixture_open(&f);
  gpu_program program, read;
  make_program(&f, &program);
  void *entry = NULL;
  const uint8_t *constants = NULL;
  ck_assert_int_eq(gpu_program_cache_read(&f.backend, &f.key, &f.graph, &f.partition,
                                          GPU_STORAGE_FLOAT32, &read, &entry, &constants),
                   0); /* nothing written yet */
  ck_assert_ptr_null(entry);
  ck_assert_int_eq(gpu_program_cache_write(&f.backend, &f.options, &f.key, &program), 1);
  ck_assert_int_eq(gpu_program_cache_read(&f.backend, &f.key, &f.graph, &f.partition,
                                          GPU_STORAGE_FLOAT32, &read, &entry, &constants),
                   1);
  ck_assert_ptr_nonnull(entry);
  ck_assert_uint_eq((uintptr_t)constants % 16, 0);
  assert_same_program(&program, &read, constants);
  gpu_program_release(&f.host, &read);
  f.host.free(f.host.context, entry);

  /* A program made for another storage mode is not this one's. */
  ck_assert_int_eq(gpu_program_cache_read(&f.backend, &f.key, &f.graph, &f.partition,
                                          GPU_STORAGE_HALF, &read, &entry, &constants),
                   0);
  ck_assert_ptr_null(entry);
  ck_assert_ptr_null(read.dispatches);
  gpu_program_release(&f.host, &program);
  fixture_close(&f);
}
END_TEST

/* Every prefix of a valid body is refused, allocating nothing it keeps. */
START_TEST(program_prefixes_refused) {
  fixture f;
  fixture_open(&f);
  gpu_program program, read;
  make_program(&f, &program);
  void *body = NULL;
  uint32_t size = 0;
  ck_assert_int_eq(gpu_program_cache_encode(&f.host, &program, &body, &size), 1);
  const uint8_t *constants = NULL;
  ck_assert_ptr_null(gpu_program_cache_decode(&f.host, body, size, &f.graph, &f.partition,
                                              GPU_STORAGE_FLOAT32, &read, &constants));
  gpu_program_release(&f.host, &read);
  for (uint32_t length = 0; length < size; ++length) {
    const char *problem = gpu_program_cache_decode(&f.host, body, length, &f.graph, &f.partition,
                                                   GPU_STORAGE_FLOAT32, &read, &constants);
    ck_assert_msg(problem != NULL, "a body cut to %u of %u bytes was accepted", length, size);
    ck_assert_ptr_null(read.dispatches);
    ck_assert_ptr_null(read.params);
    ck_assert_ptr_null(constants);
  }
  f.host.free(f.host.context, body);
  gpu_program_release(&f.host, &program);
  fixture_close(&f);
}
END_TEST

/* One inconsistency each, written intact through the module's writer. */
typedef void (*spoil_fn)(gpu_program *program);
static void kernel_beyond(gpu_program *p) { p->dispatches[1].kernel = GPU_KERNEL_EXTENDED_COUNT; }
static void kernel_negative(gpu_program *p) { p->dispatches[0].kernel = -1; }
static void kind_unknown(gpu_program *p) { p->dispatches[1].args[3].kind = 9; }
static void binding_index(gpu_program *p) { p->dispatches[1].args[0].binding = 2; }
static void offset_unit_zero(gpu_program *p) { p->dispatches[0].args[1].offset_unit = 0; }
static void binding_offset(gpu_program *p) { p->params[GPU_PARAMS_PER_DISPATCH + 0] = 4; }
static void arena_range(gpu_program *p) { p->dispatches[0].args[0].arena_size = ARENA_BYTES; }
static void arena_param(gpu_program *p) { p->params[0] = 0; }
static void constant_offset(gpu_program *p) { p->params[GPU_PARAMS_PER_DISPATCH + 2] = 1000; }
static void binding_tensor(gpu_program *p) { p->binding_tensors[0] = 2; }
static void binding_bytes(gpu_program *p) { p->binding_bytes[1] = 65; }
static void binding_count(gpu_program *p) { p->binding_count = 1; }
static void dispatch_count(gpu_program *p) { p->dispatch_count = 1; p->dispatches[0].op_count = 3; }
static void work_empty(gpu_program *p) { p->dispatches[1].local[2] = 0; }
static void op_outside(gpu_program *p) { p->dispatches[1].first_op = 2; }
static void post_count(gpu_program *p) { p->params[GPU_PARAMS_PER_DISPATCH + GPU_P_POST_COUNT] = 9; }
static void element_size(gpu_program *p) { p->element_size = 2; }
static void params_place(gpu_program *p) { p->dispatches[1].params = 0; }
static void state_range(gpu_program *p) { p->dispatches[1].args[3].arena_offset = 16; }
static void state_step(gpu_program *p) { p->params[GPU_PARAMS_PER_DISPATCH + 3] = 0; }

static const spoil_fn spoilers[] = {
    kernel_beyond,   kernel_negative, kind_unknown,   binding_index,  offset_unit_zero,
    binding_offset,  arena_range,     arena_param,    constant_offset, binding_tensor,
    binding_bytes,   binding_count,   dispatch_count, work_empty,     op_outside,
    post_count,      element_size,    params_place,   state_range,    state_step};
#define SPOILER_COUNT (sizeof spoilers / sizeof *spoilers)

START_TEST(inconsistent_program_refused) {
  fixture f;
  fixture_open(&f);
  gpu_program program, read;
  make_program(&f, &program);
  spoilers[_i](&program);
  ck_assert_int_eq(gpu_program_cache_write(&f.backend, &f.options, &f.key, &program), 1);
  void *entry = NULL;
  const uint8_t *constants = NULL;
  ck_assert_msg(gpu_program_cache_read(&f.backend, &f.key, &f.graph, &f.partition,
                                       GPU_STORAGE_FLOAT32, &read, &entry, &constants) == 0,
                "inconsistency %d was read as a program", _i);
  ck_assert_ptr_null(entry);
  ck_assert_ptr_null(constants);
  ck_assert_ptr_null(read.dispatches);
  ck_assert_ptr_null(read.params);
  ck_assert_ptr_null(read.binding_tensors);
  gpu_program_release(&f.host, &program);
  /* The rebuilt program replaces it and is read. */
  make_program(&f, &program);
  ck_assert_int_eq(gpu_program_cache_write(&f.backend, &f.options, &f.key, &program), 1);
  ck_assert_int_eq(gpu_program_cache_read(&f.backend, &f.key, &f.graph, &f.partition,
                                          GPU_STORAGE_FLOAT32, &read, &entry, &constants),
                   1);
  assert_same_program(&program, &read, constants);
  gpu_program_release(&f.host, &read);
  f.host.free(f.host.context, entry);
  gpu_program_release(&f.host, &program);
  fixture_close(&f);
}
END_TEST

/* The build ID that keys a partition's entries is the one the linker wrote
 * into this object (here the test program, which links gpu_common), as
 * readelf reads it. */
START_TEST(build_id_is_the_objects_own) {
  uint8_t id[GPU_BUILD_ID_MAX];
  size_t size = gpu_build_id(id, sizeof id);
  ck_assert_msg(size > 0, "no GNU build ID found in the test program (linked without --build-id?)");
  char expected[2 * GPU_BUILD_ID_MAX + 1] = "";
  /* Not /proc/self/exe in the command: that would be the shell's. */
  char self[4096];
  ssize_t self_length = readlink("/proc/self/exe", self, sizeof self - 1);
  ck_assert_int_gt(self_length, 0);
  self[self_length] = '\0';
  char command[4200];
  snprintf(command, sizeof command, "readelf -n '%s' 2>/dev/null", self);
  FILE *readelf = popen(command, "r");
  ck_assert_ptr_nonnull(readelf);
  char line[512];
  char readelf_id[2 * GPU_BUILD_ID_MAX + 1] = "";
  while (fgets(line, sizeof line, readelf) != NULL)
    if (sscanf(line, " Build ID: %128s", readelf_id) == 1) break;
  pclose(readelf);
  for (size_t i = 0; i < size; ++i) snprintf(expected + 2 * i, 3, "%02x", id[i]);
  if (readelf_id[0] == '\0') {
    printf("build ID: readelf not found or silent; %zu bytes read: %s\n", size, expected);
  } else {
    ck_assert_str_eq(expected, readelf_id);
  }
  /* A smaller buffer gets the first bytes. */
  uint8_t first[4];
  ck_assert_uint_eq(gpu_build_id(first, sizeof first), sizeof first);
  ck_assert_int_eq(memcmp(first, id, sizeof first), 0);
}
END_TEST

int main(void) {
  Suite *suite = suite_create("program_entry");
  TCase *tc = tcase_create("program_entry");
  tcase_add_test(tc, program_round_trip);
  tcase_add_test(tc, build_id_is_the_objects_own);
  tcase_add_test(tc, program_prefixes_refused);
  tcase_add_loop_test(tc, inconsistent_program_refused, 0, (int)SPOILER_COUNT);
  suite_add_tcase(suite, tc);
  return test_run_suite(suite);
}
