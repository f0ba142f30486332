//! A checked model opened for runs: on named float32 tensors, or on one plane of samples
//! through a model of one input and one output shaped `[1, 1, H, W]`.

use std::path::Path;

use tract_onnx::pb::{self, ModelProto};
use tract_onnx::prelude::*;
use vmafx::{Error, Result};

use crate::allowlist;
use crate::limits::{read_capped, MAX_MODEL_BYTES, MAX_SIDE};
use crate::sidecar::{self, Sidecar};

/// How to open a session (VMAFx's `VmafxDnnConfig`, less what a CPU-only engine ignores).
#[derive(Debug, Clone, Copy, Default)]
pub struct SessionOptions {
    /// Exchange tensors in half precision: accepted, and tensors stay float32 (tract runs
    /// the graph as exported).
    pub fp16_io: bool,
}

/// A named tensor in or out of a run: float32 values in row-major order.
#[derive(Debug, Clone, PartialEq)]
pub struct Tensor {
    /// The model's name for it.
    pub name: String,
    /// Its extents.
    pub shape: Vec<usize>,
    /// Its values.
    pub data: Vec<f32>,
}

/// An input or output of the model: its name and the extents the file fixes (`None` for a
/// symbolic or unknown one).
#[derive(Debug, Clone, PartialEq)]
pub struct Port {
    /// The model's name for it.
    pub name: String,
    /// The extents; empty when the file gives no shape.
    pub dims: Vec<Option<usize>>,
}

/// An opened tiny model.
pub struct Session {
    path: String,
    model: InferenceModel,
    inputs: Vec<Port>,
    outputs: Vec<Port>,
    sidecar: Option<Sidecar>,
    /// The plan built for the last input shapes (tract plans for concrete shapes).
    plan: Option<(Vec<Vec<usize>>, TypedRunnableModel<TypedModel>)>,
}

impl std::fmt::Debug for Session {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Session")
            .field("path", &self.path)
            .field("inputs", &self.inputs)
            .field("outputs", &self.outputs)
            .finish()
    }
}

impl Session {
    /// Opens the model at `path` after the checks: the size limit, a readable ONNX graph,
    /// the operator allowlist, the sidecar (and its digest) when present. Errors name `path`.
    pub fn open(path: &Path, options: &SessionOptions) -> Result<Session> {
        let _ = options.fp16_io;
        let shown = path.display().to_string();
        let bytes = read_capped(path, MAX_MODEL_BYTES, "tiny model")?;
        let proto: ModelProto = tract_onnx::onnx()
            .proto_model_for_read(&mut &bytes[..])
            .map_err(|e| Error::invalid(&shown, format!("not an ONNX model: {e:#}")))?;
        allowlist::check(&proto, &shown)?;
        let sidecar = sidecar::load(path, &bytes)?;
        let graph = proto.graph.as_ref().expect("checked by the allowlist");
        let initialised: Vec<&str> = graph.initializer.iter().map(|t| t.name.as_str()).collect();
        let inputs: Vec<Port> = graph
            .input
            .iter()
            .filter(|v| !initialised.contains(&v.name.as_str()))
            .map(port)
            .collect();
        let outputs: Vec<Port> = graph.output.iter().map(port).collect();
        if inputs.is_empty() || outputs.is_empty() {
            return Err(Error::invalid(
                &shown,
                "the model has no input or no output",
            ));
        }
        let model = tract_onnx::onnx()
            .model_for_proto_model(&proto)
            .map_err(|e| {
                Error::invalid(&shown, format!("the ONNX engine cannot load it: {e:#}"))
            })?;
        Ok(Session {
            path: shown,
            model,
            inputs,
            outputs,
            sidecar,
            plan: None,
        })
    }

    /// The model's path, as given.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The model's inputs, in order.
    pub fn inputs(&self) -> &[Port] {
        &self.inputs
    }

    /// The model's outputs, in order.
    pub fn outputs(&self) -> &[Port] {
        &self.outputs
    }

    /// The sidecar read next to the model, if any.
    pub fn sidecar(&self) -> Option<&Sidecar> {
        self.sidecar.as_ref()
    }

    /// The device the session runs on: always `CPU` (tract).
    pub fn device(&self) -> &'static str {
        "CPU"
    }

    /// Runs the model on `inputs` (name, or `None` for the model's next input in order;
    /// shape; values) and returns every output. An input the model lacks, one given twice,
    /// one missing, or values that do not fill the shape are `Invalid` naming the model.
    pub fn run(&mut self, inputs: &[(Option<&str>, &[usize], &[f32])]) -> Result<Vec<Tensor>> {
        if inputs.len() != self.inputs.len() {
            return Err(Error::invalid(
                &self.path,
                format!(
                    "the model takes {} input(s); {} given",
                    self.inputs.len(),
                    inputs.len()
                ),
            ));
        }
        let mut slots: Vec<Option<(&[usize], &[f32])>> = vec![None; self.inputs.len()];
        for (i, (name, shape, data)) in inputs.iter().enumerate() {
            let slot = match name {
                Some(n) => self
                    .inputs
                    .iter()
                    .position(|p| p.name == *n)
                    .ok_or_else(|| {
                        Error::invalid(&self.path, format!("the model has no input `{n}`"))
                    })?,
                None => i,
            };
            if slots[slot].is_some() {
                return Err(Error::invalid(
                    &self.path,
                    format!("input `{}` given twice", self.inputs[slot].name),
                ));
            }
            let count = shape
                .iter()
                .try_fold(1usize, |a, &d| a.checked_mul(d))
                .filter(|&n| n == data.len());
            if count.is_none() {
                return Err(Error::invalid(
                    &self.path,
                    format!(
                        "input `{}`: shape {shape:?} does not hold the {} values given",
                        self.inputs[slot].name,
                        data.len()
                    ),
                ));
            }
            slots[slot] = Some((shape, data));
        }
        let given: Vec<(&[usize], &[f32])> = slots.into_iter().flatten().collect();
        let shapes: Vec<Vec<usize>> = given.iter().map(|(s, _)| s.to_vec()).collect();
        self.prepare(&shapes)?;
        let mut values: TVec<TValue> = TVec::new();
        for (shape, data) in given {
            let t = tract_onnx::prelude::Tensor::from_shape(shape, data)
                .map_err(|e| Error::invalid(&self.path, format!("{e:#}")))?;
            values.push(t.into());
        }
        let (_, plan) = self.plan.as_ref().expect("prepared above");
        let out = plan
            .run(values)
            .map_err(|e| Error::invalid(&self.path, format!("running the model failed: {e:#}")))?;
        let mut tensors = Vec::with_capacity(out.len());
        for (value, port) in out.iter().zip(&self.outputs) {
            let t = value.cast_to::<f32>().map_err(|e| {
                Error::invalid(&self.path, format!("output `{}`: {e:#}", port.name))
            })?;
            let data = t
                .as_slice::<f32>()
                .map_err(|e| Error::invalid(&self.path, format!("output `{}`: {e:#}", port.name)))?
                .to_vec();
            tensors.push(Tensor {
                name: port.name.clone(),
                shape: t.shape().to_vec(),
                data,
            });
        }
        Ok(tensors)
    }

    /// Runs a model of one input and one output shaped `[1, 1, H, W]` on the `w` x `h` plane
    /// `plane` (values usually 0..1) and returns its output plane. `NotSup` for another kind
    /// of model; `Range` for a plane of another size than the model fixes.
    pub fn run_plane(&mut self, plane: &[f32], w: usize, h: usize) -> Result<Vec<f32>> {
        let (mw, mh) = self.plane_shape()?;
        if mw.is_some_and(|m| m != w) || mh.is_some_and(|m| m != h) {
            return Err(Error::range(
                &self.path,
                format!(
                    "the model takes {}x{} planes; this one is {w}x{h}",
                    mw.map_or("any".into(), |v| v.to_string()),
                    mh.map_or("any".into(), |v| v.to_string())
                ),
            ));
        }
        let out = self.run(&[(None, &[1, 1, h, w], plane)])?;
        let t = &out[0];
        if t.data.len() != w * h {
            return Err(Error::not_supported(
                &self.path,
                format!(
                    "the output `{}` holds {} values, not the {w}x{h} plane of the input",
                    t.name,
                    t.data.len()
                ),
            ));
        }
        Ok(out.into_iter().next().map(|t| t.data).unwrap_or_default())
    }

    /// The width and height a plane model fixes (`None` where free); `NotSup` naming the
    /// model unless it has one input and one output and the input is `[1, 1, H, W]`.
    pub fn plane_shape(&self) -> Result<(Option<usize>, Option<usize>)> {
        let refuse = || {
            Error::not_supported(
                &self.path,
                "plane runs need one input and one output, the input shaped [1, 1, H, W]; \
                 use vmafx_dnn_session_run()",
            )
        };
        if self.inputs.len() != 1 || self.outputs.len() != 1 {
            return Err(refuse());
        }
        match self.inputs[0].dims.as_slice() {
            [n, c, h, w] if n.is_none_or(|v| v == 1) && c.is_none_or(|v| v == 1) => Ok((*w, *h)),
            _ => Err(refuse()),
        }
    }

    /// Builds (or keeps) the plan for inputs of `shapes`.
    fn prepare(&mut self, shapes: &[Vec<usize>]) -> Result<()> {
        if self.plan.as_ref().is_some_and(|(s, _)| s == shapes) {
            return Ok(());
        }
        self.plan = None;
        let mut m = self.model.clone();
        for (i, s) in shapes.iter().enumerate() {
            if s.iter().any(|&d| d > MAX_SIDE * MAX_SIDE) {
                return Err(Error::range(
                    &self.path,
                    format!("input extent in {s:?} is too large"),
                ));
            }
            m.set_input_fact(i, f32::fact(s).into())
                .map_err(|e| Error::invalid(&self.path, format!("input {i}: {e:#}")))?;
        }
        let plan = m
            .into_optimized()
            .and_then(|m| m.into_runnable())
            .map_err(|e| {
                Error::invalid(
                    &self.path,
                    format!("the model cannot run on inputs shaped {shapes:?}: {e:#}"),
                )
            })?;
        self.plan = Some((shapes.to_vec(), plan));
        Ok(())
    }
}

/// The name and fixed extents of a graph input or output.
fn port(v: &pb::ValueInfoProto) -> Port {
    use pb::tensor_shape_proto::dimension::Value;
    use pb::type_proto::Value as T;
    let dims = match v.r#type.as_ref().and_then(|t| t.value.as_ref()) {
        Some(T::TensorType(t)) => t
            .shape
            .as_ref()
            .map(|s| {
                s.dim
                    .iter()
                    .map(|d| match d.value {
                        Some(Value::DimValue(n)) if n > 0 && n as usize <= MAX_SIDE => {
                            Some(n as usize)
                        }
                        _ => None,
                    })
                    .collect()
            })
            .unwrap_or_default(),
        _ => Vec::new(),
    };
    Port {
        name: v.name.clone(),
        dims,
    }
}
