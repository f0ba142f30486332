//! The server: answers one JSON-RPC message with MCP's methods, whichever transport carried it.

use serde_json::{json, Value};

use crate::rpc::{self, RpcError};
use crate::runs::Runs;
use crate::tools::{self, ToolError};

/// The MCP revision this server speaks (answered to `initialize` unless the client asks for
/// another it also knows).
pub const PROTOCOL_VERSION: &str = "2024-11-05";

/// Revisions a client may ask for; the server answers in the one asked for.
const KNOWN_VERSIONS: &[&str] = &["2024-11-05", "2025-03-26", "2025-06-18"];

/// An MCP server: its name and the runs it has scored. Shared (`Arc`) by its transports.
#[derive(Debug)]
pub struct Server {
    name: String,
    runs: Runs,
}

impl Default for Server {
    fn default() -> Self {
        Server::new(None)
    }
}

impl Server {
    /// A server reporting `name` to clients (`vmafx` when `None`).
    pub fn new(name: Option<&str>) -> Server {
        Server {
            name: name.unwrap_or("vmafx").to_string(),
            runs: Runs::default(),
        }
    }

    /// The name reported to clients.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Answers one message: `Some` answer for a request, `None` for a notification (or a
    /// message that is only whitespace).
    pub fn handle(&self, message: &str) -> Option<String> {
        if message.trim().is_empty() {
            return None;
        }
        let req = match rpc::parse(message) {
            Ok(r) => r,
            Err(e) => return Some(rpc::error(Value::Null, &e)),
        };
        let answer = self.route(&req.method, &req.params);
        let id = req.id?;
        Some(match answer {
            Ok(v) => rpc::result(id, v),
            Err(e) => rpc::error(id, &e),
        })
    }

    fn route(&self, method: &str, params: &Value) -> Result<Value, RpcError> {
        match method {
            "initialize" => {
                let asked = params.get("protocolVersion").and_then(Value::as_str);
                let version = asked
                    .filter(|v| KNOWN_VERSIONS.contains(v))
                    .unwrap_or(PROTOCOL_VERSION);
                Ok(json!({
                    "protocolVersion": version,
                    "serverInfo": {"name": self.name, "version": vmafx::VERSION},
                    "capabilities": {"tools": {}, "resources": {}},
                }))
            }
            "ping" => Ok(json!({})),
            "tools/list" => Ok(tools::list()),
            "resources/list" => Ok(json!({"resources": []})),
            "tools/call" => {
                let name = params
                    .get("name")
                    .and_then(Value::as_str)
                    .ok_or_else(|| RpcError::params("tools/call needs \"name\" (a string)"))?;
                let args = params.get("arguments").unwrap_or(&Value::Null);
                match tools::call(&self.runs, name, args) {
                    Ok(v) => Ok(json!({
                        "content": [{"type": "text", "text": v.to_string()}],
                        "structuredContent": v,
                        "isError": false,
                    })),
                    Err(ToolError::Failed(m)) => Ok(json!({
                        "content": [{"type": "text", "text": m}],
                        "isError": true,
                    })),
                    Err(ToolError::Rpc(e)) => Err(e),
                }
            }
            m if m.starts_with("notifications/") => Ok(Value::Null),
            m => Err(RpcError::new(
                rpc::METHOD_NOT_FOUND,
                format!("no such method: '{m}'"),
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ask(s: &Server, msg: Value) -> Value {
        serde_json::from_str(&s.handle(&msg.to_string()).unwrap()).unwrap()
    }

    #[test]
    fn answers_the_handshake_lists_tools_and_refuses_what_it_lacks() {
        let s = Server::new(Some("test-agent"));
        let init = ask(
            &s,
            json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {}}),
        );
        assert_eq!(init["id"], 1);
        assert_eq!(init["result"]["serverInfo"]["name"], "test-agent");
        assert_eq!(init["result"]["protocolVersion"], PROTOCOL_VERSION);
        let note = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
        assert_eq!(s.handle(&note.to_string()), None);
        let list = ask(
            &s,
            json!({"jsonrpc": "2.0", "id": "a", "method": "tools/list"}),
        );
        let names: Vec<&str> = list["result"]["tools"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["name"].as_str().unwrap())
            .collect();
        assert!(names.contains(&"compute_vmaf") && names.contains(&"get_provenance"));
        let none = ask(&s, json!({"jsonrpc": "2.0", "id": 2, "method": "nope"}));
        assert_eq!(none["error"]["code"], rpc::METHOD_NOT_FOUND);
        let call = |args: Value| {
            ask(
                &s,
                json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
                       "params": {"name": "compute_vmaf", "arguments": args}}),
            )
        };
        let missing = call(json!({"reference_path": "r.y4m"}));
        assert_eq!(missing["error"]["code"], rpc::INVALID_PARAMS);
        assert!(missing["error"]["message"]
            .as_str()
            .unwrap()
            .contains("distorted_path"));
        let unknown = call(json!({"reference_path": "a", "distorted_path": "b", "x": 1}));
        assert!(unknown["error"]["message"]
            .as_str()
            .unwrap()
            .contains("'x'"));
        let absent = call(json!({"reference_path": "/nonexistent/r.y4m",
                                 "distorted_path": "/nonexistent/d.y4m"}));
        assert_eq!(absent["result"]["isError"], true);
        assert!(absent["result"]["content"][0]["text"]
            .as_str()
            .unwrap()
            .contains("/nonexistent/r.y4m"));
        let prov = ask(
            &s,
            json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call",
                   "params": {"name": "get_provenance"}}),
        );
        assert_eq!(prov["result"]["isError"], true, "{prov}");
    }
}
