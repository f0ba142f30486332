//! `vmafx completions`, `vmafx man` and `vmafx --version`, run as a user runs them.

use std::process::Command;

fn vmafx(args: &[&str], env: &[(&str, &str)]) -> String {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_vmafx"));
    cmd.args(args).env_remove("VMAFX_CPU");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("vmafx runs");
    assert!(out.status.success(), "vmafx {args:?}: {out:?}");
    String::from_utf8(out.stdout).expect("utf-8 output")
}

#[test]
fn completions_cover_the_options_and_subcommands() {
    let bash = vmafx(&["completions", "bash"], &[]);
    assert!(bash.contains("_vmafx()"), "{bash}");
    for word in [
        "--reference",
        "--distorted",
        "--model",
        "merge",
        "completions",
    ] {
        assert!(bash.contains(word), "bash completions lack {word}");
    }
    let zsh = vmafx(&["completions", "zsh"], &[]);
    assert!(zsh.starts_with("#compdef vmafx"), "{zsh}");
    let fish = vmafx(&["completions", "fish"], &[]);
    assert!(fish.contains("complete -c vmafx"), "{fish}");
}

#[test]
fn unknown_shell_is_a_usage_error() {
    let out = Command::new(env!("CARGO_BIN_EXE_vmafx"))
        .args(["completions", "tcsh"])
        .output()
        .expect("vmafx runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("tcsh"));
}

#[test]
fn man_page_is_roff_with_the_options() {
    let man = vmafx(&["man"], &[]);
    assert!(man.contains(".TH vmafx 1"), "{man}");
    assert!(man.contains(&format!("vmafx {}", env!("CARGO_PKG_VERSION"))));
    for opt in ["reference", "distorted", "cpumask"] {
        assert!(man.contains(opt), "man page lacks {opt}");
    }
}

#[test]
fn version_names_the_cpu_level_in_use() {
    let v = vmafx(&["--version"], &[]);
    let mut lines = v.lines();
    assert_eq!(
        lines.next(),
        Some(
            format!(
                "vmafx {} (libvmaf 3.2.0 compatible)",
                env!("CARGO_PKG_VERSION")
            )
            .as_str()
        )
    );
    let cpu = lines.next().expect("a cpu line");
    assert!(
        cpu.starts_with("cpu: ") && cpu.contains("(detected: "),
        "{cpu}"
    );
    let forced = vmafx(&["--version"], &[("VMAFX_CPU", "scalar")]);
    assert!(forced.contains("cpu: scalar (detected: "), "{forced}");
    let masked = vmafx(&["--cpumask", "65535", "--version"], &[]);
    assert!(masked.contains("cpu: scalar"), "{masked}");
}
