"""A one-op .tflite model written from Python, for tests that need a model
whose input matches another model's output (tests/data has none such).

The bytes follow ../shared/tflite/schema.fbs (file identifier TFL3), laid out
front to back: a table's vtable just before it, its children after it, so
every offset a table or vector holds points forward, as flatbuffers wants.
Only what the model below needs is written: int32 and byte scalars, strings,
vectors of int32 and of tables."""

import struct

FLOAT32 = 0  # TensorType
ADD = 0  # BuiltinOperator
ADD_OPTIONS = 11  # BuiltinOptions union member


class _Table:
    """fields: (slot, value) where value is ("int32"|"uint32"|"byte", number),
    ("string", text), ("ints", [int]), ("tables", [_Table]) or ("table", _Table)."""

    def __init__(self, *fields):
        self.fields = [field for field in fields if field is not None]


class _Writer:
    def __init__(self):
        self.data = bytearray()
        self.patches = []  # (position of a uoffset, what it points at)

    def align(self, size):
        while len(self.data) % size:
            self.data.append(0)

    def write_child(self, kind, value):
        """Writes a string, vector or table; returns where it starts."""
        self.align(4)
        start = len(self.data)
        if kind == "string":
            text = value.encode()
            self.data += struct.pack("<I", len(text)) + text + b"\0"
        elif kind == "ints":
            self.data += struct.pack("<I%di" % len(value), len(value), *value)
        elif kind == "tables":
            self.data += struct.pack("<I", len(value))
            slots = []
            for _ in value:
                slots.append(len(self.data))
                self.data += b"\0\0\0\0"
            for slot, table in zip(slots, value):
                self.point(slot, self.write_table(table))
        elif kind == "table":
            start = self.write_table(value)
        else:
            raise ValueError("unknown child kind %r" % kind)
        return start

    def point(self, at, target):
        assert target > at, "flatbuffer offsets point forward"
        struct.pack_into("<I", self.data, at, target - at)

    def write_table(self, table):
        """The vtable, then the table (every field 4 bytes wide), then its
        children; returns the table's position."""
        slots = max((slot for slot, _ in table.fields), default=-1) + 1
        table_size = 4 + 4 * len(table.fields)
        vtable = [0] * slots
        for k, (slot, _) in enumerate(table.fields):
            vtable[slot] = 4 + 4 * k
        self.align(4)
        vtable_bytes = struct.pack("<HH%dH" % slots, 4 + 2 * slots, table_size, *vtable)
        if (len(self.data) + len(vtable_bytes)) % 4:
            self.data += b"\0\0"  # the table that follows starts 4-aligned
        vtable_at = len(self.data)
        self.data += vtable_bytes
        table_at = len(self.data)
        self.data += struct.pack("<i", table_at - vtable_at)
        children = []
        for slot, (kind, value) in table.fields:
            if kind == "int32":
                self.data += struct.pack("<i", value)
            elif kind == "uint32":
                self.data += struct.pack("<I", value)
            elif kind == "byte":
                self.data += struct.pack("<b3x", value)
            else:
                children.append((len(self.data), kind, value))
                self.data += b"\0\0\0\0"
        for at, kind, value in children:
            self.point(at, self.write_child(kind, value))
        return table_at


def add_self_model(shape, name="x_plus_x"):
    """A float32 model computing y = x + x (one ADD) on a tensor of `shape`."""
    def tensor(tensor_name):
        return _Table((0, ("ints", list(shape))), (1, ("byte", FLOAT32)), (2, ("uint32", 0)),
                      (3, ("string", tensor_name)))

    operator = _Table((0, ("uint32", 0)), (1, ("ints", [0, 0])), (2, ("ints", [1])),
                      (3, ("byte", ADD_OPTIONS)), (4, ("table", _Table())))
    subgraph = _Table((0, ("tables", [tensor("x"), tensor("y")])), (1, ("ints", [0])),
                      (2, ("ints", [1])), (3, ("tables", [operator])), (4, ("string", "main")))
    opcode = _Table((0, ("byte", ADD)), (2, ("int32", 1)), (3, ("int32", ADD)))
    model = _Table((0, ("uint32", 3)), (1, ("tables", [opcode])), (2, ("tables", [subgraph])),
                   (3, ("string", name)), (4, ("tables", [_Table()])))
    writer = _Writer()
    writer.data += b"\0\0\0\0TFL3"
    writer.point(0, writer.write_table(model))
    return bytes(writer.data)
