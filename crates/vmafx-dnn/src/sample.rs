//! Small ONNX models written in code, for tests and examples (nothing binary is checked in).
//! Each is a plain ONNX file (opset 13) any ONNX runtime reads.

use prost::Message;
use tract_onnx::pb::{
    self, tensor_proto::DataType, tensor_shape_proto::dimension::Value as Dim,
    type_proto::Value as TypeValue, AttributeProto, GraphProto, ModelProto, NodeProto,
    OperatorSetIdProto, TensorProto, TensorShapeProto, ValueInfoProto,
};

/// A float32 graph input or output named `name` with extents `dims` (`None` symbolic).
fn value(name: &str, dims: &[Option<usize>]) -> ValueInfoProto {
    let dim = dims
        .iter()
        .enumerate()
        .map(|(i, d)| pb::tensor_shape_proto::Dimension {
            denotation: String::new(),
            value: Some(match d {
                Some(n) => Dim::DimValue(*n as i64),
                None => Dim::DimParam(format!("d{i}")),
            }),
        })
        .collect();
    ValueInfoProto {
        name: name.into(),
        r#type: Some(pb::TypeProto {
            denotation: String::new(),
            value: Some(TypeValue::TensorType(pb::type_proto::Tensor {
                elem_type: DataType::Float as i32,
                shape: Some(TensorShapeProto { dim }),
            })),
        }),
        doc_string: String::new(),
    }
}

fn node(op: &str, inputs: &[&str], output: &str, attribute: Vec<AttributeProto>) -> NodeProto {
    NodeProto {
        input: inputs.iter().map(|s| s.to_string()).collect(),
        output: vec![output.into()],
        name: output.into(),
        op_type: op.into(),
        attribute,
        ..Default::default()
    }
}

fn int_attr(name: &str, i: i64) -> AttributeProto {
    AttributeProto {
        name: name.into(),
        r#type: pb::attribute_proto::AttributeType::Int as i32,
        i,
        ..Default::default()
    }
}

fn scalar(name: &str, v: f32) -> TensorProto {
    TensorProto {
        name: name.into(),
        data_type: DataType::Float as i32,
        float_data: vec![v],
        ..Default::default()
    }
}

fn model(graph: GraphProto) -> Vec<u8> {
    ModelProto {
        ir_version: 7,
        opset_import: vec![OperatorSetIdProto {
            domain: String::new(),
            version: 13,
        }],
        producer_name: "vmafx-dnn sample".into(),
        graph: Some(graph),
        ..Default::default()
    }
    .encode_to_vec()
}

/// A plane filter: `out = 1 - in` on `[1, 1, h, w]` (`None` leaves a side free), so an 8-bit
/// plane run through it comes back as `255 - v`. Operators `Sub` only.
pub fn invert_filter(h: Option<usize>, w: Option<usize>) -> Vec<u8> {
    let dims = [Some(1), Some(1), h, w];
    model(GraphProto {
        name: "invert".into(),
        node: vec![node("Sub", &["one", "luma"], "out", vec![])],
        initializer: vec![scalar("one", 1.0)],
        input: vec![value("luma", &dims)],
        output: vec![value("out", &dims)],
        ..Default::default()
    })
}

/// A full-reference scorer: the mean absolute difference of two `[1, 1, h, w]` luma planes
/// (`reference`, `distorted`), times `gain`. Operators `Sub`, `Abs`, `ReduceMean`, `Mul`.
pub fn mean_abs_diff(h: Option<usize>, w: Option<usize>, gain: f32) -> Vec<u8> {
    let dims = [Some(1), Some(1), h, w];
    model(GraphProto {
        name: "mean_abs_diff".into(),
        node: vec![
            node("Sub", &["reference", "distorted"], "diff", vec![]),
            node("Abs", &["diff"], "abs", vec![]),
            node(
                "ReduceMean",
                &["abs"],
                "mean",
                vec![int_attr("keepdims", 0)],
            ),
            node("Mul", &["mean", "gain"], "score", vec![]),
        ],
        initializer: vec![scalar("gain", gain)],
        input: vec![value("reference", &dims), value("distorted", &dims)],
        output: vec![value("score", &[])],
        ..Default::default()
    })
}

/// A model using `Floor`, an operator off the allowlist (which tract itself could run).
pub fn off_allowlist() -> Vec<u8> {
    let dims = [Some(1), Some(1), Some(2), Some(2)];
    model(GraphProto {
        name: "floor".into(),
        node: vec![node("Floor", &["luma"], "out", vec![])],
        input: vec![value("luma", &dims)],
        output: vec![value("out", &dims)],
        ..Default::default()
    })
}
