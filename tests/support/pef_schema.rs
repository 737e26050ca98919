//! The official PEF 2008-1 schema, as DAISY's own validator uses it, and the
//! tools that check a file against it.
//!
//! The schema is not ours and not copied into this repository: it is read
//! at test time from Debian's `libbrailleutils-java` (brailleUtils, the
//! DAISY Consortium's PEF library, LGPL), whose core jar carries
//! `pef-2008-1-full.rng` (RELAX NG with the Schematron rules embedded) and
//! `RNG2Schtrn.xsl` (which pulls the Schematron rules out of it).
//!
//! - RELAX NG: `xmllint --relaxng` (libxml2-utils).
//! - Schematron: the embedded rules, extracted with Saxon-HE
//!   (libsaxonhe-java) and checked by Jing (libjing-java) with Saxon as its
//!   XPath 2 engine (rule 1 uses an XPath 2 path step, which xmllint's
//!   Schematron cannot evaluate). Java: default-jre-headless.
//!
//! A missing package FAILS the test with what to install.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

const CORE_JAR: &str = "/usr/share/java/brailleUtils-core.jar";
const SAXON_JAR: &str = "/usr/share/java/Saxon-HE.jar";
const JING_JAR: &str = "/usr/share/java/jing.jar";
const RESOURCES: &str = "org/daisy/braille/pef/resource-files";

/// The schema files, extracted into a folder of the test's.
pub struct OfficialPefSchema {
    pub rng: PathBuf,
    pub schematron: PathBuf,
}

fn need(path: &str, package: &str) {
    assert!(
        Path::new(path).exists(),
        "{path} is missing: install the Debian package {package}"
    );
}

fn run(program: &str, args: &[&str], install: &str) -> std::process::Output {
    Command::new(program)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {program} ({e}): install {install}"))
}

impl OfficialPefSchema {
    pub fn extract(dir: &Path) -> OfficialPefSchema {
        need(CORE_JAR, "libbrailleutils-java");
        need(SAXON_JAR, "libsaxonhe-java");
        need(JING_JAR, "libjing-java");
        let unzip = |name: &str| {
            let out = run(
                "unzip",
                &["-p", CORE_JAR, &format!("{RESOURCES}/{name}")],
                "the Debian package unzip",
            );
            assert!(
                out.status.success() && !out.stdout.is_empty(),
                "{name} not in {CORE_JAR}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            let path = dir.join(name);
            std::fs::write(&path, out.stdout).unwrap();
            path
        };
        let rng = unzip("pef-2008-1-full.rng");
        let xsl = unzip("RNG2Schtrn.xsl");
        let schematron = dir.join("pef-2008-1.sch");
        let out = run(
            "java",
            &[
                "-cp",
                SAXON_JAR,
                "net.sf.saxon.Transform",
                &format!("-s:{}", rng.display()),
                &format!("-xsl:{}", xsl.display()),
                &format!("-o:{}", schematron.display()),
            ],
            "the Debian package default-jre-headless",
        );
        assert!(
            out.status.success(),
            "extracting the Schematron rules: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let sch = std::fs::read_to_string(&schematron).unwrap();
        // The two rules of PEF 2008-1: rows fit the page, cells fit the row.
        assert!(
            sch.contains("[Rule 1]") && sch.contains("[Rule 2]"),
            "Schematron rules missing: {sch}"
        );
        OfficialPefSchema { rng, schematron }
    }

    /// Checks the files against the RELAX NG schema (xmllint) and the
    /// Schematron rules (Jing with Saxon); the error text on failure.
    pub fn validate(&self, files: &[PathBuf]) -> Result<(), String> {
        assert!(!files.is_empty());
        let names: Vec<&str> = files.iter().map(|f| f.to_str().unwrap()).collect();
        let mut args = vec!["--noout", "--relaxng", self.rng.to_str().unwrap()];
        args.extend(&names);
        let out = run("xmllint", &args, "the Debian package libxml2-utils");
        if !out.status.success() {
            return Err(format!(
                "xmllint --relaxng: {}",
                String::from_utf8_lossy(&out.stderr)
            ));
        }
        let classpath = format!("{JING_JAR}:{SAXON_JAR}");
        let mut args = vec![
            "-cp",
            &classpath,
            "com.thaiopensource.relaxng.util.Driver",
            self.schematron.to_str().unwrap(),
        ];
        args.extend(&names);
        let out = run("java", &args, "the Debian package default-jre-headless");
        let report = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        if !out.status.success() || report.contains("error") {
            return Err(format!("Schematron (Jing): {report}"));
        }
        Ok(())
    }
}
