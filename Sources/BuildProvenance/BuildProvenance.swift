// The commit and dirty flag of the source this binary was built from: `SourceProvenance`, written
// into this module before every build by Plugins/ProvenancePlugin (see there why a plugin, not
// the manifest). `Records.BuildInfo` reads it; nothing else should.
