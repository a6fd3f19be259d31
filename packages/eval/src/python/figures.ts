/**
 * Python (a part of the prelude's setup function, indented to sit inside it) that keeps a cell's matplotlib figures
 * when the cell switched to a non-GUI backend. Under ipykernel's default inline backend a figure comes back as an
 * image; `matplotlib.use("Agg")`, which scripts write by habit, turns `plt.show()` into a silent no-op and the
 * figure would be lost. After such a cell, the figures it left open are shown and closed, as the inline backend does.
 */
export const PYTHON_FIGURE_CAPTURE = String.raw`
    non_gui_backends = {"agg", "cairo", "pdf", "pgf", "ps", "svg", "template"}

    def _show_open_figures(*_result):
        pyplot = sys.modules.get("matplotlib.pyplot")
        if pyplot is None:
            return
        backend = "current"
        try:
            backend = str(pyplot.get_backend()).lower()
            if backend not in non_gui_backends or not pyplot.get_fignums():
                return
            import base64, io
            from IPython.display import publish_display_data

            for number in pyplot.get_fignums():
                figure = pyplot.figure(number)
                buffer = io.BytesIO()
                figure.savefig(buffer, format="png", bbox_inches="tight")
                png = base64.b64encode(buffer.getvalue()).decode("ascii")
                publish_display_data({"image/png": png, "text/plain": repr(figure)})
            pyplot.close("all")
        except Exception as error:
            sys.stderr.write(f"(this cell's matplotlib figures could not be captured under the {backend} backend: {error})\n")

    try:
        get_ipython().events.register("post_run_cell", _show_open_figures)
    except Exception:
        pass
`;
