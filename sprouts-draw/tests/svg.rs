//! SVG and PNG pictures: snapshots of the SVG text, and the PNG rendered from it.

mod common;

use common::with_loops;
use sprouts_draw::analyse;
use sprouts_draw::svg::{SvgOptions, drawing_svg, lives_colour, svg_to_png};

fn region_picture() -> (sprouts_draw::Drawing, sprouts_draw::Analysis) {
    let d = with_loops(
        &[
            (1, 40.0, 300.0),
            (2, 560.0, 300.0),
            (3, 300.0, 150.0),
            (4, 150.0, 420.0),
            (5, 250.0, 420.0),
            (6, 200.0, 430.0),
            (7, 330.0, 350.0),
            (8, 470.0, 350.0),
        ],
        &[(1, 2, 300.0, 300.0, 260.0), (7, 8, 400.0, 350.0, 70.0)],
        &[(4, 6, &[(175.0, 410.0)]), (6, 5, &[(225.0, 440.0)])],
    );
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
