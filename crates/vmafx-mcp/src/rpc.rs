//! JSON-RPC 2.0 envelopes: reading a request, writing a result or an error.

use serde_json::{json, Value};

/// The request was not JSON.
pub const PARSE_ERROR: i64 = -32700;
/// The JSON was not a JSON-RPC 2.0 request.
pub const INVALID_REQUEST: i64 = -32600;
/// No such method (or tool).
pub const METHOD_NOT_FOUND: i64 = -32601;
/// The method's parameters were wrong.
pub const INVALID_PARAMS: i64 = -32602;
/// The server failed while answering.
pub const INTERNAL_ERROR: i64 = -32603;

/// A JSON-RPC error: its code and a message naming what was wrong.
#[derive(Debug, Clone, PartialEq)]
pub struct RpcError {
    /// One of the codes above.
    pub code: i64,
    /// What went wrong, naming the input.
    pub message: String,
}

impl RpcError {
    /// An error with `code` and `message`.
    pub fn new(code: i64, message: impl Into<String>) -> RpcError {
        RpcError {
            code,
            message: message.into(),
        }
    }

    /// Wrong parameters.
    pub fn params(message: impl Into<String>) -> RpcError {
        RpcError::new(INVALID_PARAMS, message)
    }
}

/// A request read from one message: its id (`None` for a notification), method and params.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Request {
    pub id: Option<Value>,
    pub method: String,
    pub params: Value,
}

/// Reads one message. `Err` carries the error answer to send (with a null id).
pub(crate) fn parse(text: &str) -> Result<Request, RpcError> {
    let v: Value = serde_json::from_str(text)
        .map_err(|e| RpcError::new(PARSE_ERROR, format!("parse error: {e}")))?;
    let Value::Object(mut o) = v else {
        return Err(RpcError::new(
            INVALID_REQUEST,
            "a request is a JSON object (batches are not supported)",
        ));
    };
    if o.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return Err(RpcError::new(
            INVALID_REQUEST,
            "\"jsonrpc\" must be \"2.0\"",
        ));
    }
    let method = match o.remove("method") {
        Some(Value::String(m)) => m,
        _ => {
            return Err(RpcError::new(
                INVALID_REQUEST,
                "\"method\" must be a string",
            ))
        }
    };
    let id = o.remove("id");
    if let Some(id) = &id {
        if !(id.is_string() || id.is_number() || id.is_null()) {
            return Err(RpcError::new(
                INVALID_REQUEST,
                "\"id\" must be a string, a number or null",
            ));
        }
    }
    Ok(Request {
        id,
        method,
        params: o.remove("params").unwrap_or(Value::Null),
    })
}

/// The answer carrying `result` for request `id`.
pub(crate) fn result(id: Value, result: Value) -> String {
    json!({"jsonrpc": "2.0", "id": id, "result": result}).to_string()
}

/// The answer carrying `error` for request `id` (null when it could not be read).
pub(crate) fn error(id: Value, error: &RpcError) -> String {
    json!({
        "jsonrpc": "2.0",
        "id": id,
        "error": {"code": error.code, "message": error.message},
    })
    .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_requests_and_refuses_what_is_not_one() {
        let r = parse(r#"{"jsonrpc":"2.0","id":7,"method":"ping"}"#).unwrap();
        assert_eq!((r.id, r.method.as_str()), (Some(json!(7)), "ping"));
        let n = parse(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#).unwrap();
        assert_eq!(n.id, None);
        assert_eq!(parse("{oops").unwrap_err().code, PARSE_ERROR);
        assert_eq!(parse("[1]").unwrap_err().code, INVALID_REQUEST);
        assert_eq!(
            parse(r#"{"jsonrpc":"1.0","method":"x"}"#).unwrap_err().code,
            INVALID_REQUEST
        );
        assert_eq!(
            parse(r#"{"jsonrpc":"2.0","id":{},"method":"x"}"#)
                .unwrap_err()
                .code,
            INVALID_REQUEST
        );
    }
}
