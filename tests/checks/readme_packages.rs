//! README's list of the packages the tests need is the one
//! `scripts/deps.sh` installs (`ROCHADE_TEST_PACKAGES`): a user who
//! installs them by hand from the README gets every one.

use std::path::Path;

fn read(path: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(path))
        .unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The words of the shell array `name=( ... )` in `script`.
fn shell_array(script: &str, name: &str) -> Vec<String> {
    let start = script
        .find(&format!("{name}=("))
        .unwrap_or_else(|| panic!("{name} not in scripts/deps.sh"));
    let rest = &script[start + name.len() + 2..];
    let end = rest.find(')').expect("the array ends");
    rest[..end].split_whitespace().map(str::to_owned).collect()
}

#[test]
fn readme_names_every_package_the_tests_install() {
    let deps = read("scripts/deps.sh");
    let readme = read("README.md");
    // The README's words in backquotes.
    let quoted: Vec<&str> = readme
        .split('`')
        .skip(1)
        .step_by(2)
        .flat_map(str::split_whitespace)
        .collect();
    let packages = shell_array(&deps, "ROCHADE_TEST_PACKAGES");
    assert!(packages.len() > 10, "{packages:?}");
    let missing: Vec<&String> = packages
        .iter()
        .filter(|p| !quoted.contains(&p.as_str()))
        .collect();
    assert!(
        missing.is_empty(),
        "README does not name these test packages of scripts/deps.sh: {missing:?}"
    );
}
