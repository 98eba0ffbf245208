import BikiFiles

// The file helpers live in BikiFiles; these names keep `biki install` (edited elsewhere) building.
package typealias WholeFile = BikiFiles.WholeFile
package typealias PrivateDirectory = BikiFiles.PrivateDirectory
package typealias PrivateDirectoryError = BikiFiles.PrivateDirectoryError
