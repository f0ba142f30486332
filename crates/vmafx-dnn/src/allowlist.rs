//! The operators a tiny model may use: VMAFx's allowlist (pure arithmetic, shape, pooling,
//! normalisation and activation operators, integer quantisation, and `Loop`/`If` whose
//! bodies are checked too). A model with any other operator, an operator of a custom
//! domain, or a tensor stored outside the file (external data, which would make the
//! runtime open other files) is refused before it is run.

use tract_onnx::pb::{GraphProto, ModelProto, TensorProto};
use vmafx::{Error, Result};

/// The allowed `op_type`s of the default ONNX domain.
pub const ALLOWED_OPS: &[&str] = &[
    // Shape and layout.
    "Identity",
    "Reshape",
    "Flatten",
    "Squeeze",
    "Unsqueeze",
    "Transpose",
    "Concat",
    "Slice",
    "Gather",
    "Cast",
    "Shape",
    "Expand",
    "Pad",
    "GatherND",
    "ScatterND",
    // Element-wise arithmetic.
    "Add",
    "Sub",
    "Mul",
    "Div",
    "Neg",
    "Abs",
    "Sqrt",
    "Pow",
    "Exp",
    "Log",
    "Clip",
    "Min",
    "Max",
    "Sum",
    "Mean",
    "Reciprocal",
    "BitShift",
    // Reductions and global pooling.
    "ReduceMean",
    "ReduceSum",
    "ReduceMax",
    "ReduceMin",
    "ReduceProd",
    "GlobalAveragePool",
    "GlobalMaxPool",
    // Dense and convolutional layers.
    "Gemm",
    "MatMul",
    "Conv",
    "ConvTranspose",
    "MaxPool",
    "AveragePool",
    "Resize",
    // Normalisation.
    "BatchNormalization",
    "LayerNormalization",
    "InstanceNormalization",
    // Activations.
    "Relu",
    "LeakyRelu",
    "Sigmoid",
    "Tanh",
    "Softmax",
    "Elu",
    "Selu",
    "Softplus",
    "Softsign",
    "Gelu",
    "Erf",
    "HardSigmoid",
    "HardSwish",
    "PRelu",
    // No-ops at inference.
    "Dropout",
    "Constant",
    "ConstantOfShape",
    // Integer quantisation (static QDQ and dynamic).
    "QuantizeLinear",
    "DequantizeLinear",
    "DynamicQuantizeLinear",
    "MatMulInteger",
    "ConvInteger",
    // Control flow: allowed when every operator of the bodies is.
    "Loop",
    "If",
];

/// Whether `op_type` of the default domain is allowed.
pub fn allowed(op_type: &str) -> bool {
    ALLOWED_OPS.contains(&op_type)
}

/// Checks every node of `model` (and of the graphs inside `Loop`/`If` attributes) against
/// the allowlist; `path` names the model in the error, with the first refused operator.
pub fn check(model: &ModelProto, path: &str) -> Result<()> {
    let graph = model
        .graph
        .as_ref()
        .ok_or_else(|| Error::invalid(path, "the ONNX model has no graph"))?;
    check_graph(graph, path, 0)
}

/// How deeply `Loop`/`If` bodies may nest (a hostile file cannot recurse without bound).
const MAX_NESTING: usize = 16;

fn check_graph(graph: &GraphProto, path: &str, depth: usize) -> Result<()> {
    if depth > MAX_NESTING {
        return Err(Error::invalid(
            path,
            format!("subgraphs nest deeper than {MAX_NESTING} levels"),
        ));
    }
    for t in &graph.initializer {
        check_tensor(t, path)?;
    }
    for node in &graph.node {
        let op = node.op_type.as_str();
        if !(node.domain.is_empty() || node.domain == "ai.onnx") {
            return Err(Error::invalid(
                path,
                format!(
                    "operator {op} of domain {} is not on the tiny-model allowlist",
                    node.domain
                ),
            ));
        }
        if !allowed(op) {
            return Err(Error::invalid(
                path,
                format!(
                    "operator {op} (node `{}`) is not on the tiny-model allowlist",
                    node.name
                ),
            ));
        }
        for a in &node.attribute {
            if let Some(t) = &a.t {
                check_tensor(t, path)?;
            }
            for t in &a.tensors {
                check_tensor(t, path)?;
            }
            if let Some(g) = &a.g {
                check_graph(g, path, depth + 1)?;
            }
            for g in &a.graphs {
                check_graph(g, path, depth + 1)?;
            }
        }
    }
    Ok(())
}

/// ONNX `TensorProto.DataLocation.EXTERNAL`.
const EXTERNAL: i32 = 1;

fn check_tensor(t: &TensorProto, path: &str) -> Result<()> {
    if t.data_location == Some(EXTERNAL) || !t.external_data.is_empty() {
        return Err(Error::invalid(
            path,
            format!(
                "tensor `{}` is stored outside the model file (external data is refused)",
                t.name
            ),
        ));
    }
    Ok(())
}
