package mpi;

/** A file view (displacement, elementary type, file type, data representation), as {@code File} would take one. */
public final class FileView {
    private final long disp;
    private final Datatype etype;
    private final Datatype filetype;
    private final String datarep;

    public FileView(long disp, Datatype etype, Datatype filetype, String datarep) {
        this.disp = disp;
        this.etype = etype;
        this.filetype = filetype;
        this.datarep = datarep;
    }

    public long getDisp() {
        return disp;
    }

    public Datatype getEType() {
        return etype;
    }

    public Datatype getFileType() {
        return filetype;
    }

    public String getDataRep() {
        return datarep;
    }
}
