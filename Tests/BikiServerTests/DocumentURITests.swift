import Testing

@testable import BikiServer

@Suite struct DocumentURITests {
  @Test func fileURIsDecodeToPaths() {
    #expect(DocumentURI.path("file:///home/me/packs/my%20pack.json") == "/home/me/packs/my pack.json")
    #expect(DocumentURI.path("file://localhost/tmp/a.json") == "/tmp/a.json")
    #expect(DocumentURI.path("file:///tmp/%E6%97%A5.json") == "/tmp/日.json")
    #expect(DocumentURI.path("file:///tmp/%zz.json") == nil)
    #expect(DocumentURI.path("untitled:1") == nil)
    #expect(DocumentURI.path("file://server/share/a.json") == nil)
  }

  @Test func pathsEncodeToFileURIs() {
    #expect(DocumentURI.fileURI("/tmp/my pack/日.json") == "file:///tmp/my%20pack/%E6%97%A5.json")
    #expect(DocumentURI.path(DocumentURI.fileURI("/a b/%c.json")) == "/a b/%c.json")
  }
}
