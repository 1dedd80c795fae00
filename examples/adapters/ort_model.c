/* ort_model.c - the one-node ONNX model (Where, opset 16) as protobuf
 * bytes, written by hand: field numbers from onnx/onnx.proto (ModelProto,
 * GraphProto, NodeProto, ValueInfoProto, TypeProto, OperatorSetIdProto).
 */
#include <string.h>

#include "ort.h"

/* A growing message: bytes, or failed once it would pass cap. */
typedef struct msg {
    unsigned char *b;
    size_t n, cap;
} msg;

static void put(msg *m, const void *p, size_t n)
{
    if (m->n + n > m->cap) {
        m->n = m->cap + 1; /* stays over: the caller sees the failure */
        return;
    }
    memcpy(m->b + m->n, p, n);
    m->n += n;
}

static void varint(msg *m, uint64_t v)
{
    unsigned char c[10];
    size_t n = 0;

    do {
        c[n] = (unsigned char)(v & 0x7f);
        v >>= 7;
        if (v)
            c[n] |= 0x80;
        n++;
    } while (v);
    put(m, c, n);
}

/* Wire types: 0 varint, 2 length-delimited. */
static void field_int(msg *m, unsigned field, uint64_t v)
{
    varint(m, (uint64_t)field << 3);
    varint(m, v);
}

static void field_bytes(msg *m, unsigned field, const void *p, size_t n)
{
    varint(m, (uint64_t)field << 3 | 2);
    varint(m, n);
    put(m, p, n);
}

static void field_str(msg *m, unsigned field, const char *s)
{
    field_bytes(m, field, s, strlen(s));
}

/* ValueInfoProto{name=1, type=2: TypeProto{tensor_type=1:
 * Tensor{elem_type=1}}}: no shape, so any rank is accepted. */
static void value_info(msg *m, unsigned field, const char *name, int type)
{
    unsigned char tb[16], ttb[16], vb[64];
    msg tensor = {tb, 0, sizeof tb}, tp = {ttb, 0, sizeof ttb};
    msg vi = {vb, 0, sizeof vb};

    field_int(&tensor, 1, (uint64_t)type);
    field_bytes(&tp, 1, tensor.b, tensor.n);
    field_str(&vi, 1, name);
    field_bytes(&vi, 2, tp.b, tp.n);
    field_bytes(m, field, vi.b, vi.n);
}

size_t ort_where_model(int ctype, int xtype, int ytype, unsigned char *buf,
                       size_t cap)
{
    unsigned char nb[64], gb[256], ob[16];
    msg node = {nb, 0, sizeof nb}, graph = {gb, 0, sizeof gb};
    msg opset = {ob, 0, sizeof ob}, model = {buf, 0, cap};

    /* NodeProto: input=1 (x3), output=2, op_type=4 */
    field_str(&node, 1, "c");
    field_str(&node, 1, "x");
    field_str(&node, 1, "y");
    field_str(&node, 2, "z");
    field_str(&node, 4, "Where");
    /* GraphProto: node=1, name=2, input=11, output=12 */
    field_bytes(&graph, 1, node.b, node.n);
    field_str(&graph, 2, "select");
    value_info(&graph, 11, "c", ctype);
    value_info(&graph, 11, "x", xtype);
    value_info(&graph, 11, "y", ytype);
    value_info(&graph, 12, "z", xtype);
    /* OperatorSetIdProto: domain=1 ("" is the default), version=2 */
    field_str(&opset, 1, "");
    field_int(&opset, 2, 16);
    /* ModelProto: ir_version=1 (8), graph=7, opset_import=8 */
    field_int(&model, 1, 8);
    field_bytes(&model, 7, graph.b, graph.n);
    field_bytes(&model, 8, opset.b, opset.n);
    return model.n <= cap && node.n <= sizeof nb && graph.n <= sizeof gb
               ? model.n : 0;
}
