//! SVG and PNG pictures: snapshots of the SVG text, and the PNG rendered from it.

mod common;

use common::several_boundaries;
use sprouts_draw::analyse;
use sprouts_draw::svg::{SvgOptions, drawing_svg, lives_colour, svg_to_png};

fn region_picture() -> (sprouts_draw::Drawing, sprouts_draw::Analysis) {
    let d = several_boundaries();
    let a = analyse(&d).unwrap();
    (d, a)
}

#[test]
fn svg_with_labels_and_shading() {
    let (d, a) = region_picture();
    let svg = drawing_svg(
        &d,
        &a,
        &SvgOptions {
            labels: true,
            shade_regions: true,
        },
    );
    // Curves are native cubic Bézier commands, spots are coloured by lives.
    assert_eq!(
        svg.matches("<path class=\"curve\"").count(),
        d.curves().len()
    );
    assert!(svg.contains(" C"));
    assert!(svg.contains(&format!(
        "data-spot=\"3\" cx=\"300\" cy=\"150\" r=\"3\" fill=\"{}\"",
        lives_colour(3)
    )));
    assert_eq!(svg.matches("<path class=\"region\"").count(), 3);
    insta::assert_snapshot!("regions_svg", svg);
}

#[test]
fn svg_plain() {
    let (d, a) = region_picture();
    let svg = drawing_svg(
        &d,
        &a,
        &SvgOptions {
            labels: false,
            shade_regions: false,
        },
    );
    assert!(!svg.contains("<text"));
    assert!(!svg.contains("class=\"region\""));
    insta::assert_snapshot!("plain_svg", svg);
}

#[test]
fn png_is_rendered_from_the_svg() {
    let (d, a) = region_picture();
    let svg = drawing_svg(
        &d,
        &a,
        &SvgOptions {
            labels: true,
            shade_regions: true,
        },
    );
    let png = svg_to_png(&svg, 1.5).unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    let width = u32::from_be_bytes(png[16..20].try_into().unwrap());
    let height = u32::from_be_bytes(png[20..24].try_into().unwrap());
    assert_eq!((width, height), (900, 900));
    let out = std::env::temp_dir().join("sprouts-draw-regions.png");
    std::fs::write(&out, &png).unwrap();
    assert!(svg_to_png(&svg, 0.0).is_err());
    assert!(svg_to_png("<not svg", 1.0).is_err());
}
