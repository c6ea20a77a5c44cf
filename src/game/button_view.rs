//! What one control-bar button shows: plain data the battle's control bar produces and the
//! HUD's windows display.
//!
//! Must not: know the battle or the shell (a leaf both import).

/// What one control-bar button shows.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ButtonView {
    /// Its text.
    pub label: String,
    /// False greys it out.
    pub usable: bool,
    /// Its tooltip.
    pub tooltip: String,
    /// An image (a dynamic image's name) at its left, if any.
    pub icon: Option<String>,
    /// Its key, shown on the image.
    pub key: String,
}
