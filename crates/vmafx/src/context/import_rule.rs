//! The device of a context (ADR-1929 item 10) and the import rule (item 8, ADR-1852 D8).
//!
//! [`Context::use_device`] attaches the one device a context scores on, before any
//! feature, model or frame. [`Context::import_frame`] imports a producer's frame on that
//! device and admits it; a `Busy` or `Timeout` is retried once after one host wait on the
//! acquire fence of at most [`super::ContextConfig::import_retry_wait`]. Any failure is
//! one error naming the input, backend, device, memory kind, pixel format, depth, size,
//! every plane's modifier, the cause and the number of attempts. The zero-copy rule is
//! never relaxed here: the descriptor's flags are the caller's.

use super::Context;
use crate::device::Device;
use crate::error::{Error, Result, Status};
use crate::frame::import::{Acquire, FrameImport};
use crate::frame::Frame;
use crate::hooks::{self, TestClock};

/// Whether a failure may pass once the producer catches up.
fn transient(e: &Error) -> bool {
    matches!(e.status(), Status::Busy | Status::Timeout)
}

/// What was imported, where: the prefix of every import-rule failure.
fn describe(desc: &FrameImport, input: &str, device: &Device) -> String {
    let info = device.info();
    let n = (desc.n_planes as usize).min(desc.planes.len());
    let modifiers: Vec<String> = desc.planes[..n]
        .iter()
        .map(|p| format!("0x{:x}", p.modifier))
        .collect();
    let memory = desc.memory.map_or("unknown", |m| {
        m.name().strip_prefix("VMAFX_MEMORY_").unwrap_or(m.name())
    });
    format!(
        "{input}: backend {} device {}, memory {memory}, {} {}-bit {}x{}, modifiers {}",
        info.backend.name(),
        info.index,
        desc.format.map_or("unknown format", |f| f.name()),
        desc.bpc,
        desc.width,
        desc.height,
        modifiers.join(" ")
    )
}

impl Context {
    /// Attaches the device this context scores on (ADR-1929 item 10). Only once, and only
    /// before any feature, model or frame: a second device is `Busy` naming `device`, a
    /// device after registration is `Invalid` naming `context`. The context keeps its
    /// reference until it is dropped.
    pub fn use_device(&mut self, device: Device) -> Result<()> {
        if self.device.is_some() {
            return Err(Error::new(
                Status::Busy,
                "device",
                "the context already has its device; a context has one device",
            ));
        }
        let started = !matches!(self.state, super::State::Setup);
        if started || !self.registrations.is_empty() || !self.models.is_empty() {
            return Err(Error::invalid(
                "context",
                "the device comes before any feature, model or frame (features pick their device twin when registered)",
            ));
        }
        self.device = Some(device);
        Ok(())
    }

    /// The device the context scores on: the one attached, else the CPU device.
    pub fn device(&self) -> Device {
        self.device.clone().unwrap_or_else(Device::cpu)
    }

    /// Imports the producer's frame `desc` for input `input` (`reference`, `main`, ...)
    /// under the import rule, and admits it; see the module documentation.
    ///
    /// `device`, when given, must be the context's device (`Invalid` naming `device`
    /// otherwise); without one the context's device imports.
    ///
    /// # Safety
    /// As [`Device::import`] for `desc`.
    pub unsafe fn import_frame(
        &self,
        device: Option<&Device>,
        desc: &FrameImport,
        input: &str,
    ) -> Result<Frame> {
        let own = self.device();
        if let Some(given) = device {
            if !given.same_as(&own) && (self.device.is_some() || given.backend() != own.backend()) {
                return Err(Error::invalid(
                    "device",
                    "not the device of this context (vmafx_context_use_device)",
                ));
            }
        }
        let attempt = || {
            // SAFETY: the caller's contract for `desc`.
            let frame = unsafe { own.import(desc) }?;
            self.admit(&frame)?;
            Ok(frame)
        };
        let mut attempts = 1u32;
        let result = match attempt() {
            Err(e) if transient(&e) => {
                let wait = self.config.import_retry_wait();
                if let Acquire::Host(Some(fence)) = &desc.acquire {
                    // The outcome is the retry's to find: a fence still unsignalled makes
                    // the second import fail in turn.
                    let _ = fence.wait_with_clock(wait, "desc.acquire", &TestClock);
                }
                hooks::note_retry_wait(wait.as_nanos().min(u64::MAX as u128) as u64);
                attempts = 2;
                attempt()
            }
            other => other,
        };
        result.map_err(|e| {
            let cause = if e.subject().is_empty() {
                e.message().to_string()
            } else {
                format!("{}: {}", e.subject(), e.message())
            };
            Error::new(
                e.status(),
                e.subject(),
                format!(
                    "{}: {cause} ({attempts} attempt{}; no host copy)",
                    describe(desc, input, &own),
                    if attempts == 1 { "" } else { "s" }
                ),
            )
        })
    }
}

#[cfg(test)]
#[path = "import_rule_tests.rs"]
mod tests;
