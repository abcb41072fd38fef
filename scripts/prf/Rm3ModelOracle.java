/*
 * Test oracle for src/lib/prf/rm3.ts: the relevance-model step of Anserini's RM3 (Rm3Reranker
 * .estimateRelevanceModel with io.anserini.util.FeatureVector) written against the real Java containers
 * it uses — fastutil's Object2FloatOpenHashMap, java.util.HashSet, a stable List.sort — so that the
 * TypeScript reproduction of their iteration orders (src/lib/prf/java-hash-order.ts) and of the float
 * arithmetic can be compared with the JVM's. Used by tests/lib/prf/rm3-java-order.test.ts.
 *
 * stdin, per query:  Q <fbTerms> <docs>
 *                    D <score as float bits, hex> <terms> <term> <tf> …   (filtered terms, in byte order)
 * stdout, per query: R <term> <weight as float bits, hex> …             (the model, in iteration order)
 */
import it.unimi.dsi.fastutil.objects.Object2FloatOpenHashMap;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

public class Rm3ModelOracle {
  private static Object2FloatOpenHashMap<String> heaviest(Object2FloatOpenHashMap<String> vector, int k) {
    List<Map.Entry<String, Float>> entries = new ArrayList<>();
    for (String key : vector.keySet()) entries.add(new AbstractMap.SimpleEntry<>(key, vector.getFloat(key)));
    entries.sort((x, y) -> {
      double a = x.getValue();
      double b = y.getValue();
      return a > b ? -1 : (a == b ? 0 : 1);
    });
    Object2FloatOpenHashMap<String> kept = new Object2FloatOpenHashMap<>();
    for (Map.Entry<String, Float> entry : entries) {
      kept.put(entry.getKey(), (float) entry.getValue());
      if (kept.size() >= k) break;
    }
    return kept;
  }

  private static double l1(Object2FloatOpenHashMap<String> vector) {
    double norm = 0;
    for (String key : vector.keySet()) norm += Math.abs(vector.getFloat(key));
    return norm;
  }

  public static void main(String[] args) throws Exception {
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    StringBuilder out = new StringBuilder();
    String line;
    while ((line = in.readLine()) != null) {
      String[] head = line.split(" ");
      int fbTerms = Integer.parseInt(head[1]);
      int numDocs = Integer.parseInt(head[2]);
      List<Object2FloatOpenHashMap<String>> docs = new ArrayList<>();
      float[] scores = new float[numDocs];
      for (int d = 0; d < numDocs; d++) {
        String[] parts = in.readLine().split(" ");
        scores[d] = Float.intBitsToFloat(Integer.parseUnsignedInt(parts[1], 16));
        int terms = Integer.parseInt(parts[2]);
        Object2FloatOpenHashMap<String> vector = new Object2FloatOpenHashMap<>();
        for (int t = 0; t < terms; t++) vector.put(parts[3 + 2 * t], (float) Integer.parseInt(parts[4 + 2 * t]));
        docs.add(heaviest(vector, fbTerms));
      }
      float[] norms = new float[numDocs];
      for (int d = 0; d < numDocs; d++) norms[d] = (float) l1(docs.get(d));
      Set<String> vocab = new HashSet<>();
      for (Object2FloatOpenHashMap<String> doc : docs) vocab.addAll(doc.keySet());
      Object2FloatOpenHashMap<String> model = new Object2FloatOpenHashMap<>();
      for (String term : vocab) {
        float weight = 0.0f;
        for (int d = 0; d < numDocs; d++) {
          if (norms[d] > 0.001f) weight += (docs.get(d).getFloat(term) / norms[d]) * scores[d];
        }
        model.put(term, weight);
      }
      model = heaviest(model, fbTerms);
      double norm = l1(model);
      for (String key : model.keySet()) model.put(key, (float) (model.getFloat(key) / norm));
      out.append('R');
      for (String key : model.keySet()) out.append(' ').append(key).append(' ').append(Integer.toHexString(Float.floatToIntBits(model.getFloat(key))));
      out.append('\n');
    }
    System.out.print(out);
  }
}
