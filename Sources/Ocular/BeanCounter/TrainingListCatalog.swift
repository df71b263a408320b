/// A catalogue that also hands out the classifiers training-list parameters name: files on the
/// command line (``ImageFiles``), the studio's own list. A catalogue that is not one names no
/// training lists.
public protocol TrainingListCatalog: ImageCatalog {
    /// The classifier trained on the list of this name with this profile.
    /// - Parameters:
    ///   - name: The list's name.
    ///   - profile: The profile.
    /// - Returns: The classifier.
    /// - Throws: Why there is none, or why it cannot be had yet.
    func classifier(trainingList name: String, profile: BlobProfile) throws -> BlobClassifier
}

extension ImageFiles: TrainingListCatalog {
    /// The list at that path, its model loaded from the user's cache folder or trained and kept there.
    /// - Parameters:
    ///   - name: The training list's path.
    ///   - profile: The profile.
    /// - Returns: The classifier.
    /// - Throws: ``BlobError`` or ``OcularError`` when the list cannot be read or trained on.
    public func classifier(trainingList name: String, profile: BlobProfile) throws -> BlobClassifier {
        try BlobModel.classifier(forList: name, profile: profile).classifier
    }
}

extension StageValues {
    /// The classifier a training-list parameter names, from ``images``; nil when it names none.
    /// - Parameters:
    ///   - key: The stage's training-list parameter.
    ///   - profile: The profile.
    /// - Returns: The classifier, or nil.
    /// - Throws: ``StageError`` naming the stage and parameter when the classifier cannot be had.
    public func classifier<Owner: Stage>(_ key: Parameter<Owner, TrainingListName?>, profile: BlobProfile) throws(StageError) -> BlobClassifier? {
        guard let list = self[key] else { return nil }
        guard let catalog = images as? any TrainingListCatalog else {
            throw StageError(stage: stage, parameter: key.name,
                             reason: "no training lists can be named here, so there is no '\(list.name.prefix(80))'")
        }
        do {
            return try catalog.classifier(trainingList: list.name, profile: profile)
        } catch {
            throw StageError(stage: stage, parameter: key.name, reason: "\(error)")
        }
    }
}
