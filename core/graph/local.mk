# The model as the core sees it: loading (read -> validate -> infer shapes ->
# fold -> prepare), the graph passes and the public model API.
libtflaccel_core_la_SOURCES += \
	core/graph/folding.c \
	core/graph/folding.h \
	core/graph/graph_validation.c \
	core/graph/graph_validation.h \
	core/graph/memory_limits.c \
	core/graph/memory_limits.h \
	core/graph/model.c \
	core/graph/model.h \
	core/graph/model_api.c \
	core/graph/model_internal.h \
	core/graph/model_token.c \
	core/graph/prepared_api.c \
	core/graph/prepared_graph.c \
	core/graph/prepared_graph.h \
	core/graph/shape_inference.c \
	core/graph/shape_inference.h \
	core/graph/signature_api.c
