//! "Did you mean …?": the known name nearest to a misspelt one, for error messages and notes
//! (layout keys and flags, data references).
//!
//! Must not: guess wildly — only names within a couple of edits are offered.

/// Edits (insert, delete, replace, swap of neighbours) between two names, ignoring case.
fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.to_lowercase().chars().collect();
    let b: Vec<char> = b.to_lowercase().chars().collect();
    let mut prev2 = vec![0usize; b.len() + 1];
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for i in 1..=a.len() {
        let mut cur = vec![i; b.len() + 1];
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            cur[j] = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                cur[j] = cur[j].min(prev2[j - 2] + 1);
            }
        }
        prev2 = std::mem::replace(&mut prev, cur);
    }
    prev[b.len()]
}

/// The candidate nearest to `name`, if one is close enough to be a slip (at most two edits,
/// and fewer than a third of the name's length); exact matches are not suggestions.
pub fn nearest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let limit = 2.min(name.chars().count().div_ceil(3)).max(1);
    candidates
        .into_iter()
        .filter(|c| *c != name)
        .map(|c| (distance(name, c), c))
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, c)| (*d, *c))
        .map(|(_, c)| c)
}

/// `" (did you mean X?)"` when a candidate is near, else nothing.
pub fn did_you_mean<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> String {
    nearest(name, candidates).map_or_else(String::new, |c| format!(" (did you mean {c}?)"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slips_are_caught_and_strangers_are_not() {
        let keys = ["ANCHOR", "SCALING", "TEXT", "TOOLTIPTEXT"];
        assert_eq!(nearest("ANCHR", keys), Some("ANCHOR"));
        assert_eq!(nearest("anchor", keys), Some("ANCHOR"));
        assert_eq!(nearest("SCAILNG", keys), Some("SCALING"));
        assert_eq!(nearest("WOBBLE", keys), None);
        assert_eq!(nearest("TEXT", keys), None, "an exact match is no suggestion");
        assert_eq!(did_you_mean("Rifel", ["Rifle", "Rocket"]), " (did you mean Rifle?)");
        assert_eq!(did_you_mean("Zzz", ["Rifle"]), "");
    }
}
