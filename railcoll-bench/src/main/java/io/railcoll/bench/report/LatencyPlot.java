package io.railcoll.bench.report;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.XYStyler;
import org.knowm.xchart.style.markers.SeriesMarkers;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;

/**
 * Draws a {@link ResultTable} as a PNG in the style of the papers' figures: median latency against
 * message size, both on log scales, one line per algorithm (colour, marker and line style all vary: {@link #styleOf})
 * and a dashed or dotted black line per peer.
 *
 * <p>The x axis is log2 of the size drawn on a linear axis, labelled with the sizes themselves
 * ({@code 1B}, {@code 1K}, {@code 1M}): XChart's logarithmic axis only labels powers of ten, which
 * would put "1000" where readers expect 1K. Size 0 has no place on a log axis and is left out
 * (the tables still show it). Rendering is headless. Stateless; callable from any thread.
 */
public final class LatencyPlot {
    public static final int WIDTH = 960;
    public static final int HEIGHT = 600;

    static {
        // XChart renders through AWT; without this a machine with no display (CI) fails at the first font.
        if (System.getProperty("java.awt.headless") == null) {
            System.setProperty("java.awt.headless", "true");
        }
    }

    private LatencyPlot() {
    }

    /** True when the table has a point with a size above 0, i.e. something to draw. */
    public static boolean plottable(ResultTable table) {
        return table.rows().stream().anyMatch(r -> r.sizeBytes() > 0);
    }

    /**
     * Writes the plot as a {@value #WIDTH}x{@value #HEIGHT} PNG.
     *
     * @throws IllegalArgumentException if the table is not {@link #plottable}
     */
    public static void write(ResultTable table, Path png) {
        XYChart chart = chart(table);
        try (OutputStream out = Files.newOutputStream(png)) {
            BitmapEncoder.saveBitmap(chart, out, BitmapEncoder.BitmapFormat.PNG);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + png, e);
        }
    }

    static XYChart chart(ResultTable table) {
        if (!plottable(table)) {
            throw new IllegalArgumentException("nothing to plot in '" + table.title() + "': no size above 0 bytes");
        }
        XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT)
                .title(table.title())
                .xAxisTitle("message size per rank")
                .yAxisTitle("median latency (us)")
                .build();
        style(chart.getStyler());
        int own = 0;
        int peers = 0;
        for (int c = 0; c < table.columns().size(); c++) {
            List<Double> x = new ArrayList<>();
            List<Double> y = new ArrayList<>();
            for (ResultTable.Row row : table.rows()) {
                OptionalDouble v = row.mediansUs().get(c);
                // A 0 us median (a barrier below timer resolution) cannot sit on a log axis either.
                if (row.sizeBytes() > 0 && v.isPresent() && v.getAsDouble() > 0) {
                    x.add(log2(row.sizeBytes()));
                    y.add(v.getAsDouble());
                }
            }
            if (x.isEmpty()) {
                continue;
            }
            ResultTable.Column column = table.columns().get(c);
            XYSeries series = chart.addSeries(column.label(), x, y);
            if (column.peer()) {
                int p = peers++;
                series.setLineColor(Color.BLACK);
                series.setMarkerColor(Color.BLACK);
                series.setMarker(MARKERS[(MARKERS.length - 1 - p) % MARKERS.length]);
                series.setLineStyle(new BasicStroke(2.0f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10.0f,
                        p % 2 == 0 ? new float[] {8.0f, 5.0f} : new float[] {2.0f, 4.0f}, 0.0f));
            } else {
                Style style = styleOf(own++);
                series.setLineColor(style.color());
                series.setMarkerColor(style.color());
                series.setMarker(style.marker());
                series.setLineStyle(style.stroke());
            }
        }
        return chart;
    }

    /** How one of railcoll's lines is drawn. */
    record Style(Color color, org.knowm.xchart.style.markers.Marker marker, BasicStroke stroke) {
    }

    /** Colour-blind-safe colours (Okabe-Ito, without black, which the peers use). */
    static final Color[] COLORS = {new Color(0xE69F00), new Color(0x56B4E9), new Color(0x009E73), new Color(0xF0E442),
            new Color(0x0072B2), new Color(0xD55E00), new Color(0xCC79A7)};
    static final org.knowm.xchart.style.markers.Marker[] MARKERS = {SeriesMarkers.CIRCLE, SeriesMarkers.SQUARE,
            SeriesMarkers.DIAMOND, SeriesMarkers.TRIANGLE_UP, SeriesMarkers.TRIANGLE_DOWN};
    private static final BasicStroke[] STROKES = {new BasicStroke(2.0f),
            new BasicStroke(2.0f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10.0f, new float[] {12.0f, 4.0f}, 0.0f),
            new BasicStroke(2.0f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10.0f, new float[] {12.0f, 4.0f, 2.0f, 4.0f}, 0.0f)};

    /**
     * The n-th of railcoll's lines: colour, marker and line style each cycle with a different period (7, 5 and every
     * 7 lines), so no two of the first 35 lines share all three, and two lines of one colour always differ in marker
     * and line style: a 13-line plot (every all-gather algorithm and auto) stays readable in grey print too.
     */
    static Style styleOf(int n) {
        return new Style(COLORS[n % COLORS.length], MARKERS[n % MARKERS.length], STROKES[(n / COLORS.length) % STROKES.length]);
    }

    private static void style(XYStyler styler) {
        styler.setChartBackgroundColor(Color.WHITE);
        styler.setPlotBackgroundColor(Color.WHITE);
        styler.setPlotGridLinesColor(new Color(220, 220, 220));
        styler.setChartTitleFont(new Font(Font.SANS_SERIF, Font.BOLD, 16));
        styler.setAxisTitleFont(new Font(Font.SANS_SERIF, Font.PLAIN, 14));
        styler.setAxisTickLabelsFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
        styler.setLegendFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
        styler.setLegendPosition(Styler.LegendPosition.InsideNW);
        styler.setMarkerSize(6);
        styler.setYAxisLogarithmic(true);
        styler.setxAxisTickLabelsFormattingFunction(LatencyPlot::sizeTick);
        styler.setAntiAlias(true);
    }

    /** Labels a tick at log2(size): a size label at whole powers of two, nothing between them. */
    static String sizeTick(Double log2Size) {
        double rounded = Math.rint(log2Size);
        if (Math.abs(log2Size - rounded) > 1e-9 || rounded < 0 || rounded > 62) {
            return "";
        }
        return Sizes.label(1L << (long) rounded);
    }

    private static double log2(long bytes) {
        return Math.log(bytes) / Math.log(2);
    }
}
