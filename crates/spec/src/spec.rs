//! [`Spec`]: `NAME[:key=value[,key=value]...]`, one grammar for every component, parsed here
//! and nowhere else. Example: `pvs:depth=8,eval=mobility*10+corners*80,tt=64,threads=2`.

use crate::SpecError;
use std::str::FromStr;

/// The keys that set a player's own limits: a spec with none of them searches to a default
/// depth or iteration count, which a caller with a game clock may lift ([`Spec::sets_limits`]).
pub const LIMIT_KEYS: &[&str] = &["depth", "nodes", "time", "playouts"];

/// A parsed spec: a component name and its `key=value` pairs in order. Keys are read with
/// [`Spec::get`], [`Spec::flag`] or [`Spec::raw`], each marking its key used;
/// [`Spec::finish`] then refuses any key nobody read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spec {
    /// The component name (lowercase).
    pub name: String,
    params: Vec<(String, String)>,
    used: Vec<bool>,
}

impl FromStr for Spec {
    type Err = SpecError;

    /// Parses `NAME[:key=value,...]`: the name of letters, digits, `-` and `_`, lowercased;
    /// keys lowercased, values trimmed; no empty key or value, no key twice.
    fn from_str(s: &str) -> Result<Spec, SpecError> {
        let s = s.trim();
        let (name, rest) = match s.split_once(':') {
            Some((n, r)) => (n, Some(r)),
            None => (s, None),
        };
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_') {
            return Err(SpecError::BadName { spec: s.to_string() });
        }
        let not_key_value = |pair: &str| SpecError::NotKeyValue {
            spec: s.to_string(),
            pair: pair.to_string(),
        };
        let mut params = Vec::new();
        if let Some(rest) = rest {
            for pair in rest.split(',') {
                let (k, v) = pair.split_once('=').ok_or_else(|| not_key_value(pair))?;
                let k = k.trim().to_ascii_lowercase();
                if k.is_empty() || v.trim().is_empty() {
                    return Err(not_key_value(pair));
                }
                if params.iter().any(|(p, _): &(String, String)| *p == k) {
                    return Err(SpecError::RepeatedKey {
                        spec: s.to_string(),
                        key: k,
                    });
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

    /// Whether the spec has `key` (without marking it used).
    pub fn contains(&self, key: &str) -> bool {
        self.params.iter().any(|(k, _)| k == key)
    }

    /// Whether the spec sets its own limits: any of [`LIMIT_KEYS`]. Without them a player
    /// searches to a default depth (search) or iteration count (MCTS), which a caller with a
    /// game clock may lift so that the clock decides.
    pub fn sets_limits(&self) -> bool {
        LIMIT_KEYS.iter().any(|k| self.contains(k))
    }

    /// The raw value of `key`, marking it used.
    pub fn raw(&mut self, key: &str) -> Option<String> {
        let i = self.params.iter().position(|(k, _)| k == key)?;
        self.used[i] = true;
        Some(self.params[i].1.clone())
    }

    /// The value of `key` parsed as `T`, marking it used; `what` names what was expected.
    ///
    /// # Errors
    /// A bad value ([`SpecError::BadValue`]), naming the key and the value.
    pub fn get<T: FromStr>(&mut self, key: &str, what: &str) -> Result<Option<T>, SpecError> {
        match self.raw(key) {
            None => Ok(None),
            Some(v) => match v.parse() {
                Ok(t) => Ok(Some(t)),
                Err(_) => Err(SpecError::bad_value(&self.name, key, v, format!("expected {what}"))),
            },
        }
    }

    /// A boolean key: `on`/`off`, `true`/`false`, `1`/`0`, `yes`/`no`.
    ///
    /// # Errors
    /// A bad value ([`SpecError::BadValue`]).
    pub fn flag(&mut self, key: &str) -> Result<Option<bool>, SpecError> {
        match self.raw(key) {
            None => Ok(None),
            Some(v) => match v.to_ascii_lowercase().as_str() {
                "on" | "true" | "1" | "yes" => Ok(Some(true)),
                "off" | "false" | "0" | "no" => Ok(Some(false)),
                _ => Err(SpecError::bad_value(&self.name, key, v, "expected on or off")),
            },
        }
    }

    /// Fails on the first key nobody asked for, listing the `known` ones.
    ///
    /// # Errors
    /// An unknown key ([`SpecError::UnknownKey`]).
    pub fn finish(&self, known: &[&str]) -> Result<(), SpecError> {
        match self.params.iter().zip(&self.used).find(|(_, used)| !**used) {
            Some(((k, _), _)) => Err(SpecError::UnknownKey {
                engine: self.name.clone(),
                key: k.clone(),
                known: known.iter().map(|k| k.to_string()).collect(),
            }),
            None => Ok(()),
        }
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
        assert_eq!(
            s.finish(&["depth", "eval"]).unwrap_err().to_string(),
            "unknown key 'tt' for engine 'pvs' (known: depth, eval)"
        );
        assert_eq!(s.get::<usize>("tt", "MiB").unwrap(), Some(64));
        assert!(s.finish(&["depth", "eval", "tt"]).is_ok());
        s.set("depth", 3);
        assert_eq!(s.get::<u32>("depth", "a number").unwrap(), Some(3));
        s.set("nodes", 5);
        assert!(s.finish(&["depth", "eval", "tt"]).is_err(), "a key set later is unused");
        assert_eq!(s.get::<u64>("nodes", "a count").unwrap(), Some(5));
        assert!(s.finish(&[]).is_ok());
        let s: Spec = "My-Engine_2:x=1".parse().unwrap();
        assert_eq!(s.name, "my-engine_2", "letters, digits, '-' and '_'");
        let mut s: Spec = " PVS:Depth = 3 ".parse().unwrap();
        assert_eq!((s.name.as_str(), s.contains("depth")), ("pvs", true));
        assert_eq!(s.raw("depth").as_deref(), Some("3"));
    }

    #[test]
    fn rejects_malformed_with_the_messages_of_the_command() {
        for (bad, message) in [
            ("", "bad engine spec '': expected NAME[:key=value,...]"),
            (":depth=1", "bad engine spec ':depth=1': expected NAME[:key=value,...]"),
            ("p v s", "bad engine spec 'p v s': expected NAME[:key=value,...]"),
            ("pvs:depth", "bad engine spec 'pvs:depth': 'depth' is not key=value"),
            ("pvs:depth=", "bad engine spec 'pvs:depth=': 'depth=' is not key=value"),
            ("pvs:=3", "bad engine spec 'pvs:=3': '=3' is not key=value"),
            (
                "pvs:depth=1,DEPTH=2",
                "bad engine spec 'pvs:depth=1,DEPTH=2': key 'depth' given twice",
            ),
        ] {
            assert_eq!(bad.parse::<Spec>().unwrap_err().to_string(), message, "{bad}");
        }
        let mut s: Spec = "mcts:seed=x,reuse=maybe".parse().unwrap();
        assert_eq!(
            s.get::<u64>("seed", "an integer").unwrap_err().to_string(),
            "bad value 'x' for key 'seed' of engine 'mcts': expected an integer"
        );
        assert_eq!(
            s.flag("reuse").unwrap_err().to_string(),
            "bad value 'maybe' for key 'reuse' of engine 'mcts': expected on or off"
        );
    }

    #[test]
    fn flags_and_limit_keys() {
        let mut s: Spec = "pvs:a=on,b=off,c=TRUE,d=0,e=yes,f=no,g=1,h=false".parse().unwrap();
        let got: Vec<bool> = ["a", "b", "c", "d", "e", "f", "g", "h"]
            .iter()
            .map(|k| s.flag(k).unwrap().unwrap())
            .collect();
        assert_eq!(got, [true, false, true, false, true, false, true, false]);
        assert_eq!(s.flag("absent").unwrap(), None);
        assert!(!s.sets_limits());
        for key in LIMIT_KEYS {
            let s: Spec = format!("x:{key}=1").parse().unwrap();
            assert!(s.sets_limits(), "{key}");
        }
        let mut s: Spec = "pvs".parse().unwrap();
        s.set("time", 5);
        assert!(s.sets_limits());
    }
}
