//! Component specs: `NAME[:key=value[,key=value]...]`, one grammar for every command, parsed
//! here and nowhere else. Example: `pvs:depth=8,eval=mobility*10+corners*80,tt=64,threads=2`.

use crate::error::{CliResult, input};
use std::str::FromStr;

/// A parsed spec: a component name and its `key=value` pairs in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spec {
    /// The component name (lowercase).
    pub name: String,
    params: Vec<(String, String)>,
    used: Vec<bool>,
}

impl FromStr for Spec {
    type Err = crate::error::CliError;
    fn from_str(s: &str) -> CliResult<Spec> {
        let s = s.trim();
        let (name, rest) = match s.split_once(':') {
            Some((n, r)) => (n, Some(r)),
            None => (s, None),
        };
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_') {
            return Err(input(format!("bad engine spec '{s}': expected NAME[:key=value,...]")));
        }
        let mut params = Vec::new();
        if let Some(rest) = rest {
            for pair in rest.split(',') {
                let (k, v) = pair
                    .split_once('=')
                    .ok_or_else(|| input(format!("bad engine spec '{s}': '{pair}' is not key=value")))?;
                let k = k.trim().to_ascii_lowercase();
                if k.is_empty() || v.trim().is_empty() {
                    return Err(input(format!("bad engine spec '{s}': '{pair}' is not key=value")));
                }
                if params.iter().any(|(p, _): &(String, String)| *p == k) {
                    return Err(input(format!("bad engine spec '{s}': key '{k}' given twice")));
                }
                params.push((k, v.trim().to_string()));
            }
        }
        let used = vec![false; params.len()];
        Ok(Spec {
            name: name.to_ascii_lowercase(),
            params,
            used,
        })
    }
}

impl Spec {
    /// Sets `key` to `value`, replacing a value from the text (command-line flags override the
    /// spec's keys).
    pub fn set(&mut self, key: &str, value: impl ToString) {
        let value = value.to_string();
        match self.params.iter().position(|(k, _)| k == key) {
            Some(i) => self.params[i].1 = value,
            None => {
                self.params.push((key.to_string(), value));
                self.used.push(false);
            }
        }
    }

    /// The raw value of `key`, marking it used.
    pub fn raw(&mut self, key: &str) -> Option<String> {
        let i = self.params.iter().position(|(k, _)| k == key)?;
        self.used[i] = true;
        Some(self.params[i].1.clone())
    }

    /// The value of `key` parsed as `T`, marking it used.
    ///
    /// # Errors
    /// A bad value, naming the key and the value.
    pub fn get<T: FromStr>(&mut self, key: &str, what: &str) -> CliResult<Option<T>> {
        match self.raw(key) {
            None => Ok(None),
            Some(v) => v.parse().map(Some).map_err(|_| {
                input(format!(
                    "bad value '{v}' for key '{key}' of engine '{}': expected {what}",
                    self.name
                ))
            }),
        }
    }

    /// A boolean key: `on`/`off`, `true`/`false`, `1`/`0`, `yes`/`no`.
    ///
    /// # Errors
    /// A bad value.
    pub fn flag(&mut self, key: &str) -> CliResult<Option<bool>> {
        match self.raw(key) {
            None => Ok(None),
            Some(v) => match v.to_ascii_lowercase().as_str() {
                "on" | "true" | "1" | "yes" => Ok(Some(true)),
                "off" | "false" | "0" | "no" => Ok(Some(false)),
                _ => Err(input(format!(
                    "bad value '{v}' for key '{key}' of engine '{}': expected on or off",
                    self.name
                ))),
            },
        }
    }

    /// Fails on the first key nobody asked for, listing the known ones.
    ///
    /// # Errors
    /// An unknown key.
    pub fn finish(&self, known: &[&str]) -> CliResult {
        for (i, (k, _)) in self.params.iter().enumerate() {
            if !self.used[i] {
                return Err(input(format!(
                    "unknown key '{k}' for engine '{}' (known: {})",
                    self.name,
                    known.join(", ")
                )));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_tracks_keys() {
        let mut s: Spec = "pvs:depth=8,eval=mobility*10+corners*80/40,tt=64".parse().unwrap();
        assert_eq!(s.name, "pvs");
        assert_eq!(s.get::<u32>("depth", "a number").unwrap(), Some(8));
        assert_eq!(s.raw("eval").as_deref(), Some("mobility*10+corners*80/40"));
        assert!(s.finish(&["depth", "eval"]).is_err());
        assert_eq!(s.get::<usize>("tt", "MiB").unwrap(), Some(64));
        assert!(s.finish(&["depth", "eval", "tt"]).is_ok());
        s.set("depth", 3);
        assert_eq!(s.get::<u32>("depth", "a number").unwrap(), Some(3));
    }

    #[test]
    fn rejects_malformed() {
        for bad in [
            "",
            ":depth=1",
            "pvs:depth",
            "pvs:depth=",
            "pvs:=3",
            "pvs:depth=1,depth=2",
            "p v s",
        ] {
            assert!(bad.parse::<Spec>().is_err(), "{bad}");
        }
        let mut s: Spec = "mcts:seed=x".parse().unwrap();
        assert!(s.get::<u64>("seed", "an integer").is_err());
    }
}
